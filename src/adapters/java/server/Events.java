import com.sun.jdi.ThreadReference;
import com.sun.jdi.VMDisconnectedException;
import com.sun.jdi.event.ClassPrepareEvent;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.event.LocatableEvent;
import com.sun.jdi.event.MethodExitEvent;
import com.sun.jdi.event.VMDeathEvent;
import com.sun.jdi.event.VMDisconnectEvent;
import com.sun.jdi.event.VMStartEvent;
import java.util.concurrent.ExecutorService;

/** Reads the VM's events: class loads are handled here at once, stops are handed to the worker. */
final class Events implements Runnable {
    private final Session s;
    private final Breakpoints bps;
    private final Steps steps;
    private final ExecutorService worker;
    private final DapServer server;

    Events(Session s, Breakpoints bps, Steps steps, ExecutorService worker, DapServer server) {
        this.s = s;
        this.bps = bps;
        this.steps = steps;
        this.worker = worker;
        this.server = server;
    }

    @Override
    public void run() {
        try {
            while (true) {
                EventSet set = s.vm.eventQueue().remove();
                boolean resume = true;
                LocatableEvent stop = null;
                for (Event e : set) {
                    if (e instanceof VMStartEvent) {
                        // Held until configurationDone, so breakpoints are set before any code runs.
                        resume = false;
                    } else if (e instanceof ClassPrepareEvent) {
                        for (Breakpoints.Bp bp : bps.classLoaded(((ClassPrepareEvent) e).referenceType())) {
                            s.wire.event("breakpoint", Json.obj("reason", "changed", "breakpoint", bp.dap()));
                        }
                    } else if (e instanceof VMDeathEvent || e instanceof VMDisconnectEvent) {
                        if (e instanceof VMDeathEvent) s.vmDied = true;
                        worker.submit(server::ended);
                        if (e instanceof VMDisconnectEvent) return;
                    } else if (e instanceof MethodExitEvent) {
                        steps.methodExit((MethodExitEvent) e);
                    } else if (e instanceof LocatableEvent) {
                        ThreadReference t = ((LocatableEvent) e).thread();
                        // A method run for a value hit a breakpoint: it is not the program's stop.
                        if (s.invoking.contains(t)) continue;
                        // One stop per set: a breakpoint where a step also ended is the breakpoint.
                        if (stop == null || e instanceof com.sun.jdi.event.BreakpointEvent) stop = (LocatableEvent) e;
                    }
                }
                if (stop != null) {
                    resume = false;
                    LocatableEvent chosen = stop;
                    worker.submit(() -> server.hit(set, chosen));
                }
                if (resume) set.resume();
            }
        } catch (VMDisconnectedException e) {
            worker.submit(server::ended);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
