import com.sun.jdi.Method;
import com.sun.jdi.ObjectReference;
import com.sun.jdi.StackFrame;
import com.sun.jdi.ThreadReference;
import com.sun.jdi.Value;
import com.sun.jdi.event.MethodExitEvent;
import com.sun.jdi.request.EventRequest;
import com.sun.jdi.request.EventRequestManager;
import com.sun.jdi.request.MethodExitRequest;
import com.sun.jdi.request.StepRequest;
import java.util.ArrayList;

/** Steps over, into and out of lines of the program's own code; a step out keeps the returned value. */
final class Steps {
    private static final String[] EXCLUDED = {"java.*", "javax.*", "jdk.*", "sun.*", "com.sun.*"};
    private final Session s;
    private MethodExitRequest exit;
    private Method leaving;
    private int depth;
    volatile Value returned;
    volatile String returnedFrom;

    Steps(Session s) {
        this.s = s;
    }

    void start(ThreadReference t, int kind) throws Exception {
        EventRequestManager erm = s.vm.eventRequestManager();
        for (StepRequest r : new ArrayList<>(erm.stepRequests())) if (r.thread().equals(t)) erm.deleteEventRequest(r);
        done();
        StepRequest r = erm.createStepRequest(t, StepRequest.STEP_LINE, kind);
        for (String p : EXCLUDED) r.addClassExclusionFilter(p);
        r.addCountFilter(1);
        r.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
        r.enable();
        if (kind == StepRequest.STEP_OUT) {
            StackFrame top = t.frame(0);
            leaving = top.location().method();
            depth = t.frameCount();
            exit = erm.createMethodExitRequest();
            exit.addThreadFilter(t);
            exit.addClassFilter(leaving.declaringType());
            exit.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
            exit.enable();
        }
    }

    /** Called on the event thread: the method stepped out of returns this value. */
    void methodExit(MethodExitEvent e) {
        try {
            if (e.method().equals(leaving) && e.thread().frameCount() == depth) {
                returned = e.returnValue();
                if (returned instanceof ObjectReference) ((ObjectReference) returned).disableCollection();
                returnedFrom = e.method().name();
            }
        } catch (Exception x) {
            Log.say("cannot read a returned value: " + x);
        }
    }

    /** The step ended: its requests go, and a value returned moves to the stop. */
    void done() {
        if (exit != null) {
            try {
                s.vm.eventRequestManager().deleteEventRequest(exit);
            } catch (RuntimeException e) {
                // The VM is gone.
            }
            exit = null;
        }
        if (returnedFrom != null && !(leaving != null && leaving.returnTypeName().equals("void"))) {
            s.returned = returned;
            s.returnedFrom = returnedFrom;
            if (returned instanceof ObjectReference) s.held.add((ObjectReference) returned);
        }
        returned = null;
        returnedFrom = null;
        leaving = null;
    }
}
