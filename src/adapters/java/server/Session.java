import com.sun.jdi.ObjectReference;
import com.sun.jdi.ThreadReference;
import com.sun.jdi.Value;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.event.EventSet;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** What the server knows of the program: its VM, its process, and the stop it is at. */
final class Session {
    final Wire wire;
    VirtualMachine vm;
    Process process;
    boolean attached;
    /** The VM waits at its start (ours always; an attached one started with suspend=y). */
    boolean startSuspended;
    List<String> sourcePaths = new ArrayList<>();
    String cwd = System.getProperty("user.dir");

    /** The thread stopped at, and the event that stopped it (null after a pause). */
    ThreadReference stopThread;
    EventSet stopEvents;
    /** Hits that came while stopped elsewhere: each stops the program in turn. */
    final Deque<Runnable> pending = new ArrayDeque<>();
    /** Threads running a method for us: their events are not the program's. */
    final Set<ThreadReference> invoking = ConcurrentHashMap.newKeySet();
    /** Objects kept from collection until the program runs again. */
    final List<ObjectReference> held = Collections.synchronizedList(new ArrayList<>());
    /** The value the method stepped out of returned, and its name. */
    Value returned;
    String returnedFrom;
    boolean ended;
    /** The VM said it was ending (VMDeath): it exited, and was not killed. */
    volatile boolean vmDied;
    /** The client asked for the end: a death it caused is not the program's news. */
    volatile boolean ending;
    /** Methods that did not return at this stop, with why: not run again until it ends. */
    final java.util.Map<com.sun.jdi.Method, String> hung = new ConcurrentHashMap<>();
    /** The call the stopped thread could not be brought back from, if any. */
    String stuck;
    private final List<ThreadReference> others = new ArrayList<>();

    Session(Wire wire) {
        this.wire = wire;
    }

    boolean stopped() {
        return stopThread != null;
    }

    void hold(ObjectReference o) {
        if (o == null) return;
        try {
            o.disableCollection();
            held.add(o);
        } catch (RuntimeException e) {
            // Collected already: reading it fails later with its own message.
        }
    }

    /** Forgets what a stop read, before the program runs on. */
    void release() {
        synchronized (held) {
            for (ObjectReference o : held) {
                try {
                    o.enableCollection();
                } catch (RuntimeException e) {
                    // The VM is gone or the object with it.
                }
            }
            held.clear();
        }
        stopThread = null;
        stopEvents = null;
        returned = null;
        returnedFrom = null;
        hung.clear();
        stuck = null;
    }

    /**
     * Holds every other thread at a stop. Not vm.suspend(): a method runs only on a thread
     * suspended once, by its event.
     */
    void suspendOthers(ThreadReference stopped) {
        for (ThreadReference t : vm.allThreads()) {
            if (t.equals(stopped)) continue;
            t.suspend();
            others.add(t);
        }
    }

    /** Runs every thread again after a stop. */
    void resumeAll() {
        EventSet events = stopEvents;
        boolean paused = stopThread != null && events == null;
        release();
        Values.forget();
        if (events != null) events.resume();
        for (ThreadReference t : others) {
            try {
                t.resume();
            } catch (RuntimeException e) {
                // It ended meanwhile.
            }
        }
        others.clear();
        if (paused) vm.resume();
    }
}
