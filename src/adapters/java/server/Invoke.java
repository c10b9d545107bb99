import com.sun.jdi.ClassType;
import com.sun.jdi.Method;
import com.sun.jdi.ObjectReference;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.ThreadReference;
import com.sun.jdi.Value;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one of the program's methods on the stopped thread, and only that thread, within a
 * deadline: a method that never returns must not hold the stop, whose every other read waits
 * behind it.
 */
final class Invoke {
    private Invoke() {}

    /** Below pairdbg's own deadline for one read (3 s), so the answer says which call hung. */
    static final long DEADLINE_MS = 1000;
    /** How long bringing the thread back from a call that does not return may take. */
    private static final long UNWIND_MS = 2000;

    /** A method that did not return in time: its value is "not read", not an error of the program. */
    static final class Timeout extends IllegalStateException {
        Timeout(String what) {
            super(what);
        }
    }

    /** JDI's invokeMethod blocks its caller until the method returns: it runs here instead. */
    private static final ExecutorService CALLS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "invoke");
        t.setDaemon(true);
        return t;
    });

    private interface Call {
        Value run(ThreadReference t) throws Exception;
    }

    static Value call(Session s, ObjectReference target, String name, List<Value> args) throws Exception {
        Method m = find(target.referenceType(), name, args.size());
        if (m == null) {
            throw new IllegalArgumentException(target.referenceType().name() + " has no method " + name
                    + " taking " + args.size() + " argument" + (args.size() == 1 ? "" : "s"));
        }
        return call(s, target, m, args);
    }

    static Value call(Session s, ObjectReference target, Method m, List<Value> args) throws Exception {
        return run(s, m, t -> target.invokeMethod(t, m, args, ObjectReference.INVOKE_SINGLE_THREADED));
    }

    static Value callStatic(Session s, ClassType type, Method m, List<Value> args) throws Exception {
        return run(s, m, t -> type.invokeMethod(t, m, args, ObjectReference.INVOKE_SINGLE_THREADED));
    }

    private static Value run(Session s, Method m, Call call) throws Exception {
        ThreadReference t = thread(s);
        String hung = s.hung.get(m);
        if (hung != null) throw new Timeout(hung);
        if (s.stuck != null) {
            throw new Timeout("the thread is still running " + s.stuck + ", which did not return");
        }
        s.invoking.add(t);
        boolean back = true;
        try {
            Future<Value> running = CALLS.submit(() -> call.run(t));
            try {
                Value v = running.get(DEADLINE_MS, TimeUnit.MILLISECONDS);
                if (v instanceof ObjectReference) s.hold((ObjectReference) v);
                return v;
            } catch (TimeoutException e) {
                String why = m.name() + "() did not return within " + DEADLINE_MS + " ms";
                s.hung.put(m, why);
                back = unwind(s, t, running);
                if (!back) s.stuck = m.name() + "()";
                throw new Timeout(why);
            } catch (java.util.concurrent.ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof com.sun.jdi.InvocationException) {
                    throw new IllegalStateException(m.name() + "() threw "
                            + Values.exceptionText(s, ((com.sun.jdi.InvocationException) cause).exception()));
                }
                if (cause instanceof Exception) throw (Exception) cause;
                throw e;
            }
        } finally {
            // A thread still in the method is still ours: its events are not the program's.
            if (back) s.invoking.remove(t);
        }
    }

    /**
     * Brings the thread back from a method that does not return. Not ThreadReference.stop or
     * interrupt: the JDWP agent holds both until the thread's event is resumed, which would end
     * the stop. Instead the thread is suspended where it runs and its top frame made to return at
     * once (JDWP ThreadReference.ForceEarlyReturn), frame by frame, until the call returns.
     * Whether it came back in time; a native frame (a sleep, a lock) cannot be made to return.
     */
    private static boolean unwind(Session s, ThreadReference t, Future<Value> running) {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(UNWIND_MS);
        while (System.nanoTime() < until) {
            if (running.isDone()) return true;
            try {
                t.suspend();
                try {
                    Method top = t.frame(0).location().method();
                    t.forceEarlyReturn(zero(s, top));
                } finally {
                    t.resume();
                }
                running.get(100, TimeUnit.MILLISECONDS);
                return true;
            } catch (TimeoutException e) {
                // The frame returned into another that runs on: that one next.
            } catch (java.util.concurrent.ExecutionException e) {
                return true;
            } catch (Exception e) {
                Log.say("a call did not return and cannot be made to: " + e);
                return false;
            }
        }
        return running.isDone();
    }

    /** The value a method returns early with: nothing, zero, false or null, by its type. */
    private static Value zero(Session s, Method m) {
        switch (m.returnTypeName()) {
            case "void": return s.vm.mirrorOfVoid();
            case "boolean": return s.vm.mirrorOf(false);
            case "byte": return s.vm.mirrorOf((byte) 0);
            case "char": return s.vm.mirrorOf((char) 0);
            case "short": return s.vm.mirrorOf((short) 0);
            case "int": return s.vm.mirrorOf(0);
            case "long": return s.vm.mirrorOf(0L);
            case "float": return s.vm.mirrorOf(0f);
            case "double": return s.vm.mirrorOf(0d);
            default: return null;
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
