import com.sun.jdi.ClassType;
import com.sun.jdi.Method;
import com.sun.jdi.ObjectReference;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.ThreadReference;
import com.sun.jdi.Value;
import java.util.List;

/** Runs one of the program's methods on the stopped thread, and only that thread. */
final class Invoke {
    private Invoke() {}

    static Value call(Session s, ObjectReference target, String name, List<Value> args) throws Exception {
        Method m = find(target.referenceType(), name, args.size());
        if (m == null) {
            throw new IllegalArgumentException(target.referenceType().name() + " has no method " + name
                    + " taking " + args.size() + " argument" + (args.size() == 1 ? "" : "s"));
        }
        return call(s, target, m, args);
    }

    static Value call(Session s, ObjectReference target, Method m, List<Value> args) throws Exception {
        ThreadReference t = thread(s);
        s.invoking.add(t);
        try {
            Value v = target.invokeMethod(t, m, args, ObjectReference.INVOKE_SINGLE_THREADED);
            if (v instanceof ObjectReference) s.hold((ObjectReference) v);
            return v;
        } catch (com.sun.jdi.InvocationException e) {
            throw new IllegalStateException(m.name() + "() threw " + Values.exceptionText(s, e.exception()));
        } finally {
            s.invoking.remove(t);
        }
    }

    static Value callStatic(Session s, ClassType type, Method m, List<Value> args) throws Exception {
        ThreadReference t = thread(s);
        s.invoking.add(t);
        try {
            Value v = type.invokeMethod(t, m, args, ObjectReference.INVOKE_SINGLE_THREADED);
            if (v instanceof ObjectReference) s.hold((ObjectReference) v);
            return v;
        } catch (com.sun.jdi.InvocationException e) {
            throw new IllegalStateException(m.name() + "() threw " + Values.exceptionText(s, e.exception()));
        } finally {
            s.invoking.remove(t);
        }
    }

    /** Only a thread an event suspended can run a method. */
    static ThreadReference thread(Session s) {
        if (s.stopThread == null || s.stopEvents == null) {
            throw new IllegalStateException("methods run only at a breakpoint, step or exception stop, not after a pause");
        }
        return s.stopThread;
    }

    static Method find(ReferenceType type, String name, int arity) {
        for (Method m : type.methodsByName(name)) {
            if (m.argumentTypeNames().size() == arity && !m.isAbstract()) return m;
        }
        return null;
    }
}
