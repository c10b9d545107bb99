import com.sun.jdi.Location;
import com.sun.jdi.ObjectReference;
import com.sun.jdi.StackFrame;
import com.sun.jdi.ThreadReference;
import com.sun.jdi.Value;
import com.sun.jdi.event.BreakpointEvent;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.event.ExceptionEvent;
import com.sun.jdi.event.LocatableEvent;
import com.sun.jdi.event.StepEvent;
import com.sun.jdi.request.ClassPrepareRequest;
import com.sun.jdi.request.EventRequest;
import com.sun.jdi.request.StepRequest;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** A DAP server over JDI on stdin and stdout. Requests and stops run one at a time on one worker. */
public final class DapServer {
    private final Session s;
    private final Breakpoints bps;
    private final Steps steps;
    private final Launcher launcher;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "worker");
        t.setDaemon(true);
        return t;
    });
    private ObjectReference exception;
    private boolean exceptionCaught;

    private DapServer(Wire wire) {
        s = new Session(wire);
        bps = new Breakpoints(s);
        steps = new Steps(s);
        launcher = new Launcher(s);
    }

    public static void main(String[] args) throws Exception {
        Wire wire = new Wire(new BufferedInputStream(System.in), new BufferedOutputStream(System.out));
        // Whatever else prints must not corrupt the protocol.
        System.setOut(System.err);
        DapServer server = new DapServer(wire);
        Runtime.getRuntime().addShutdownHook(new Thread(server::kill));
        Map<String, Object> m;
        while ((m = wire.read()) != null) {
            if (!"request".equals(m.get("type"))) continue;
            Map<String, Object> request = m;
            server.worker.submit(() -> server.handle(request));
        }
        server.kill();
        System.exit(0);
    }

    private void kill() {
        if (s.process != null && s.process.isAlive()) {
            s.process.destroyForcibly();
            try {
                s.process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void handle(Map<String, Object> r) {
        Map<String, Object> a = (Map<String, Object>) r.getOrDefault("arguments", Map.of());
        try {
            Object body = dispatch(String.valueOf(r.get("command")), a, r);
            if (body != NO_RESPONSE) s.wire.respond(r, body == null ? Json.obj() : body);
        } catch (com.sun.jdi.VMDisconnectedException e) {
            s.wire.fail(r, "the program has ended");
        } catch (Exception e) {
            String message = e.getMessage() != null ? e.getMessage() : e.toString();
            s.wire.fail(r, message);
        }
    }

    private static final Object NO_RESPONSE = new Object();
    /** How a condition's failure is told, as the adapter's Rust side reads it. */
    static final String CONDITION_FAILED = "breakpoint condition ";

    @SuppressWarnings("unchecked")
    private Object dispatch(String command, Map<String, Object> a, Map<String, Object> r) throws Exception {
        switch (command) {
            case "initialize":
                return capabilities();
            case "launch":
                launcher.launch(a);
                started();
                s.wire.respond(r, Json.obj());
                s.wire.event("initialized", Json.obj());
                return NO_RESPONSE;
            case "attach":
                launcher.attachTo(a);
                started();
                s.wire.respond(r, Json.obj());
                s.wire.event("initialized", Json.obj());
                return NO_RESPONSE;
            case "setBreakpoints": {
                Map<String, Object> source = (Map<String, Object>) a.get("source");
                String path = source == null ? null : (String) source.get("path");
                if (path == null) throw new IllegalArgumentException("setBreakpoints needs source.path");
                return Json.obj("breakpoints", bps.setLines(path, (List<Map<String, Object>>) a.getOrDefault("breakpoints", List.of())));
            }
            case "setFunctionBreakpoints":
                return Json.obj("breakpoints", bps.setFunctions((List<Map<String, Object>>) a.getOrDefault("breakpoints", List.of())));
            case "setExceptionBreakpoints":
                bps.setExceptions(a);
                return Json.obj();
            case "configurationDone":
                // Only a VM that waits at its start is resumed: one attached to while it ran
                // may already be at a breakpoint set since.
                if (s.startSuspended && !s.stopped()) s.vm.resume();
                return Json.obj();
            case "threads":
                return threads();
            case "stackTrace":
                return stackTrace(a);
            case "scopes": {
                Object f = Values.lookup(number(a, "frameId"));
                if (!(f instanceof Values.Frame)) throw new IllegalArgumentException("frameId " + a.get("frameId") + " is not a frame of this stop");
                return Json.obj("scopes", List.of(Json.obj("name", "Locals", "presentationHint", "locals",
                        "variablesReference", Values.ref(f), "expensive", false)));
            }
            case "variables": {
                Object c = Values.lookup(number(a, "variablesReference"));
                if (c == null) throw new IllegalArgumentException("variablesReference " + a.get("variablesReference") + " is not of this stop");
                long start = a.get("start") instanceof Number ? ((Number) a.get("start")).longValue() : 0;
                long count = a.get("count") instanceof Number ? ((Number) a.get("count")).longValue() : 0;
                return Json.obj("variables", Values.children(s, c, start, count));
            }
            case "setVariable": {
                Object c = Values.lookup(number(a, "variablesReference"));
                if (c == null) throw new IllegalArgumentException("variablesReference " + a.get("variablesReference") + " is not of this stop");
                Map<String, Object> v = Values.set(s, c, (String) a.get("name"), (String) a.get("value"));
                v.remove("name");
                v.remove("evaluateName");
                return v;
            }
            case "evaluate":
                return evaluate(a);
            case "continue":
                s.wire.respond(r, Json.obj("allThreadsContinued", true));
                resume();
                return NO_RESPONSE;
            case "next":
                return step(r, a, StepRequest.STEP_OVER);
            case "stepIn":
                return step(r, a, StepRequest.STEP_INTO);
            case "stepOut":
                return step(r, a, StepRequest.STEP_OUT);
            case "pause":
                s.wire.respond(r, Json.obj());
                pause(a);
                return NO_RESPONSE;
            case "exceptionInfo":
                return exceptionInfo();
            case "terminate":
                s.ending = true;
                s.wire.respond(r, Json.obj());
                if (s.process != null) s.process.destroyForcibly();
                else s.vm.exit(1);
                return NO_RESPONSE;
            case "disconnect":
                s.ending = true;
                boolean kill = !s.attached || Boolean.TRUE.equals(a.get("terminateDebuggee"));
                if (kill) kill();
                else if (s.vm != null) s.vm.dispose();
                s.wire.respond(r, Json.obj());
                s.wire.event("terminated", Json.obj());
                System.exit(0);
                return NO_RESPONSE;
            default:
                throw new IllegalArgumentException("unsupported request " + command);
        }
    }

    private static long number(Map<String, Object> a, String field) {
        Object v = a.get(field);
        if (!(v instanceof Number)) throw new IllegalArgumentException(field + " must be a number");
        return ((Number) v).longValue();
    }

    private static Map<String, Object> capabilities() {
        return Json.obj(
                "supportsConfigurationDoneRequest", true,
                "supportsConditionalBreakpoints", true,
                "supportsHitConditionalBreakpoints", true,
                "supportsLogPoints", true,
                "supportsFunctionBreakpoints", true,
                "supportsSetVariable", true,
                "supportsExceptionInfoRequest", true,
                "supportsExceptionOptions", true,
                "supportsExceptionFilterOptions", true,
                "supportsStepBack", false,
                "supportsTerminateRequest", true,
                "supportsEvaluateForHovers", true,
                "exceptionBreakpointFilters", List.of(
                        Json.obj("filter", "caught", "label", "Caught Exceptions", "default", false, "supportsCondition", true,
                                "conditionDescription", "exception classes, comma-separated: java.lang.NullPointerException"),
                        Json.obj("filter", "uncaught", "label", "Uncaught Exceptions", "default", true, "supportsCondition", true,
                                "conditionDescription", "exception classes, comma-separated: java.lang.NullPointerException")));
    }

    /** The VM is ours: classes that load from now on bind the breakpoints waiting for them. */
    private void started() {
        ClassPrepareRequest r = s.vm.eventRequestManager().createClassPrepareRequest();
        for (String p : new String[] {"java.*", "javax.*", "jdk.*", "sun.*", "com.sun.*"}) r.addClassExclusionFilter(p);
        r.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
        r.enable();
        Thread t = new Thread(new Events(s, bps, steps, worker, this), "events");
        t.setDaemon(true);
        t.start();
    }

    private ThreadReference thread(Map<String, Object> a) {
        Object id = a.get("threadId");
        if (id instanceof Number) {
            for (ThreadReference t : s.vm.allThreads()) if (t.uniqueID() == ((Number) id).longValue()) return t;
            throw new IllegalArgumentException("threadId " + id + " is no thread of the program");
        }
        if (s.stopThread != null) return s.stopThread;
        throw new IllegalArgumentException("threadId is required");
    }

    private Map<String, Object> threads() {
        List<Object> out = new ArrayList<>();
        if (s.vm != null) {
            for (ThreadReference t : s.vm.allThreads()) {
                // The JVM's own threads (Reference Handler, Finalizer, ...) are in the system group.
                com.sun.jdi.ThreadGroupReference g = t.threadGroup();
                boolean jvm = g != null && (g.name().equals("system") || g.name().equals("InnocuousThreadGroup"));
                if (jvm && !t.equals(s.stopThread)) continue;
                out.add(Json.obj("id", t.uniqueID(), "name", t.name()));
            }
        }
        return Json.obj("threads", out);
    }

    private Map<String, Object> stackTrace(Map<String, Object> a) throws Exception {
        ThreadReference t = thread(a);
        int start = a.get("startFrame") instanceof Number ? ((Number) a.get("startFrame")).intValue() : 0;
        int levels = a.get("levels") instanceof Number ? ((Number) a.get("levels")).intValue() : 0;
        int total = t.frameCount();
        int end = levels > 0 ? Math.min(total, start + levels) : total;
        List<Object> frames = new ArrayList<>();
        for (int k = start; k < end; k++) {
            StackFrame f = t.frame(k);
            Location at = f.location();
            String type = at.declaringType().name();
            Map<String, Object> frame = Json.obj("id", Values.ref(new Values.Frame(t, k)),
                    "name", Values.simple(type) + "." + at.method().name(),
                    "line", (long) Math.max(at.lineNumber(), 0), "column", 1L);
            Map<String, Object> source = source(at);
            if (source != null) frame.put("source", source);
            else frame.put("presentationHint", "subtle");
            frames.add(frame);
        }
        return Json.obj("stackFrames", frames, "totalFrames", (long) total);
    }

    /** The frame's file: the class's package directory and source name, under a source root. */
    private Map<String, Object> source(Location at) {
        String rel;
        try {
            rel = at.sourcePath();
        } catch (Exception e) {
            return null;
        }
        List<String> roots = new ArrayList<>(s.sourcePaths);
        roots.add(Path.of(s.cwd, "src", "main", "java").toString());
        roots.add(s.cwd);
        for (String root : roots) {
            Path p = Path.of(root).resolve(rel);
            if (Files.isRegularFile(p)) return Json.obj("name", p.getFileName().toString(), "path", p.toAbsolutePath().normalize().toString());
        }
        return Values.isLibrary(at.declaringType().name()) ? null : Json.obj("name", Path.of(rel).getFileName().toString());
    }

    private Map<String, Object> evaluate(Map<String, Object> a) throws Exception {
        String text = (String) a.get("expression");
        if (text == null || text.isBlank()) throw new IllegalArgumentException("expression is empty");
        Values.Frame frame = null;
        if (a.get("frameId") instanceof Number) {
            Object f = Values.lookup(((Number) a.get("frameId")).longValue());
            if (f instanceof Values.Frame) frame = (Values.Frame) f;
        } else if (s.stopThread != null) {
            frame = new Values.Frame(s.stopThread, 0);
        }
        if (frame == null && !s.stopped()) throw new IllegalStateException("the program is running: expressions are read at a stop");
        Value v = Eval.evaluate(s, frame, text);
        Map<String, Object> out = new java.util.LinkedHashMap<>();
        Values.describe(s, v, out);
        return Json.obj("result", out.get("value"), "type", out.get("type"), "variablesReference", out.get("variablesReference"));
    }

    private Object step(Map<String, Object> r, Map<String, Object> a, int kind) throws Exception {
        if (!s.stopped()) throw new IllegalStateException("the program is running: it steps only from a stop");
        ThreadReference t = thread(a);
        steps.start(t, kind);
        // The answer goes before the stop the step causes.
        s.wire.respond(r, Json.obj());
        resume();
        return NO_RESPONSE;
    }

    private void resume() {
        exception = null;
        s.resumeAll();
        while (!s.stopped() && !s.pending.isEmpty()) s.pending.poll().run();
    }

    private void pause(Map<String, Object> a) {
        if (s.stopped()) return;
        s.vm.suspend();
        ThreadReference t = a.get("threadId") instanceof Number ? thread(a) : mainThread();
        s.stopThread = t;
        s.stopEvents = null;
        s.wire.event("stopped", Json.obj("reason", "pause", "threadId", t.uniqueID(), "allThreadsStopped", true));
    }

    private ThreadReference mainThread() {
        for (ThreadReference t : s.vm.allThreads()) if (t.name().equals("main")) return t;
        return s.vm.allThreads().get(0);
    }

    /** A breakpoint, step or exception event: stops, logs, or runs on as the breakpoint says. */
    void hit(EventSet set, Event e) {
        if (s.ended) return;
        if (s.stopped()) {
            s.pending.add(() -> hit(set, e));
            return;
        }
        ThreadReference t = ((LocatableEvent) e).thread();
        try {
            if (e instanceof StepEvent) {
                steps.done();
                stop(set, t, "step", Json.obj());
            } else if (e instanceof ExceptionEvent) {
                ExceptionEvent x = (ExceptionEvent) e;
                exception = x.exception();
                exceptionCaught = x.catchLocation() != null;
                s.stopThread = t;
                s.stopEvents = set;
                s.hold(exception);
                String text = Values.exceptionText(s, exception);
                stop(set, t, "exception", Json.obj("description", text, "text", text));
            } else if (e instanceof BreakpointEvent) {
                breakpoint(set, t, (Breakpoints.Bp) e.request().getProperty("bp"));
            } else {
                set.resume();
            }
        } catch (com.sun.jdi.VMDisconnectedException x) {
            // The program ended while it stopped.
        } catch (Exception x) {
            Log.say("cannot handle " + e + ": " + x);
            set.resume();
        }
    }

    private void breakpoint(EventSet set, ThreadReference t, Breakpoints.Bp bp) throws Exception {
        if (bp == null) {
            set.resume();
            return;
        }
        bp.hits++;
        if (bp.hitCondition != null && !Breakpoints.hitCountMet(bp.hitCondition, bp.hits)) {
            set.resume();
            return;
        }
        // Conditions and log messages run the program's methods: as at a stop, on this thread alone.
        s.stopThread = t;
        s.stopEvents = set;
        Values.Frame frame = new Values.Frame(t, 0);
        if (bp.condition != null) {
            // A condition that cannot be told true or false stops, its error said first.
            try {
                Value v = Eval.evaluate(s, frame, bp.condition);
                if (!(v instanceof com.sun.jdi.BooleanValue)) {
                    throw new IllegalArgumentException("it is " + (v == null ? "null" : "a " + v.type().name()) + ", not a boolean");
                }
                if (!((com.sun.jdi.BooleanValue) v).value()) {
                    s.release();
                    set.resume();
                    return;
                }
            } catch (Exception x) {
                s.wire.output("console", CONDITION_FAILED + Json.quoted(bp.condition) + " failed: " + x.getMessage() + "\n");
            }
        }
        if (bp.logMessage != null) {
            s.wire.output("console", logLine(frame, bp.logMessage) + "\n");
            s.release();
            set.resume();
            return;
        }
        s.release();
        stop(set, t, bp.method != null ? "function breakpoint" : "breakpoint", Json.obj("hitBreakpointIds", List.of(bp.id)));
    }

    /** A log message with each `{expression}` replaced by its value; `{{` and `}}` are braces. */
    private String logLine(Values.Frame frame, String template) {
        StringBuilder out = new StringBuilder();
        int k = 0;
        while (k < template.length()) {
            char c = template.charAt(k);
            if ((c == '{' || c == '}') && k + 1 < template.length() && template.charAt(k + 1) == c) {
                out.append(c);
                k += 2;
                continue;
            }
            int close = c == '{' ? template.indexOf('}', k) : -1;
            if (close < 0) {
                out.append(c);
                k++;
                continue;
            }
            String expr = template.substring(k + 1, close);
            try {
                Value v = Eval.evaluate(s, frame, expr);
                Map<String, Object> d = new java.util.HashMap<>();
                Values.describe(s, v, d);
                out.append(v instanceof com.sun.jdi.StringReference ? ((com.sun.jdi.StringReference) v).value() : d.get("value"));
            } catch (Exception x) {
                out.append("<error: ").append(x.getMessage()).append(">");
            }
            k = close + 1;
        }
        return out.toString();
    }

    private void stop(EventSet set, ThreadReference t, String reason, Map<String, Object> extra) {
        s.suspendOthers(t);
        s.stopThread = t;
        s.stopEvents = set;
        // A step cut short by this stop must not stop again later.
        com.sun.jdi.request.EventRequestManager erm = s.vm.eventRequestManager();
        for (StepRequest r : new ArrayList<>(erm.stepRequests())) if (r.thread().equals(t)) erm.deleteEventRequest(r);
        if (!reason.equals("step")) steps.done();
        Map<String, Object> body = Json.obj("reason", reason, "threadId", t.uniqueID(), "allThreadsStopped", true);
        body.putAll(extra);
        s.wire.event("stopped", body);
    }

    private Map<String, Object> exceptionInfo() throws Exception {
        if (exception == null) throw new IllegalStateException("the program is not stopped at an exception");
        String type = exception.referenceType().name();
        String message = Values.message(s, exception);
        return Json.obj("exceptionId", type, "description", message == null ? type : message,
                "breakMode", exceptionCaught ? "always" : "unhandled", "details", details(exception, 0));
    }

    private Map<String, Object> details(ObjectReference x, int depth) throws Exception {
        String type = x.referenceType().name();
        Map<String, Object> d = Json.obj("message", Values.message(s, x), "typeName", Values.simple(type), "fullTypeName", type);
        if (depth < 8) {
            Value cause = Invoke.call(s, x, "getCause", List.of());
            if (cause instanceof ObjectReference && !cause.equals(x)) {
                d.put("innerException", List.of(details((ObjectReference) cause, depth + 1)));
            }
        }
        return d;
    }

    /** The VM is gone: the program's exit code, then the end. */
    void ended() {
        if (s.ended) return;
        s.ended = true;
        for (Thread p : launcher.pumps) {
            try {
                p.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (s.process != null) {
            try {
                int code = s.process.waitFor();
                // Java reads a signal's death as 128 plus the signal, as an
                // exit with that code reads; only a VM that exited sends
                // VMDeath first, so without it the number is the signal's.
                if (!s.vmDied && !s.ending && code > 128 && code <= 128 + 64) {
                    s.wire.event("output", Json.obj("category", "console",
                            "output", "Program terminated with signal " + (code - 128) + ".\n"));
                }
                s.wire.event("exited", Json.obj("exitCode", (long) code));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        s.wire.event("terminated", Json.obj());
    }
}
