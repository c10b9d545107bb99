import com.sun.jdi.AbsentInformationException;
import com.sun.jdi.Location;
import com.sun.jdi.Method;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.request.BreakpointRequest;
import com.sun.jdi.request.ClassPrepareRequest;
import com.sun.jdi.request.EventRequest;
import com.sun.jdi.request.EventRequestManager;
import com.sun.jdi.request.ExceptionRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Line, function and exception breakpoints, set now on loaded classes and as classes load. */
final class Breakpoints {
    /** One breakpoint as the client set it. */
    static final class Bp {
        final long id;
        final String source;
        final int line;
        final String method;
        final String condition;
        final String hitCondition;
        final String logMessage;
        int hits;
        int actualLine;
        boolean verified;
        final List<BreakpointRequest> requests = new ArrayList<>();

        Bp(long id, String source, int line, String method, Map<String, Object> spec) {
            this.id = id;
            this.source = source;
            this.line = line;
            this.method = method;
            this.condition = blank((String) spec.get("condition"));
            this.hitCondition = blank((String) spec.get("hitCondition"));
            this.logMessage = blank((String) spec.get("logMessage"));
        }

        private static String blank(String s) {
            return s == null || s.isBlank() ? null : s;
        }

        Map<String, Object> dap() {
            Long at = verified ? Long.valueOf(actualLine) : line > 0 ? Long.valueOf(line) : null;
            return Json.obj("id", id, "verified", verified, "line", at,
                    "source", source == null ? null : Json.obj("path", source),
                    "message", verified ? null : "not loaded yet: set when its class loads");
        }
    }

    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    private final Session s;
    private long nextId = 1;
    /** By source path: its line breakpoints; and the package its file declares. */
    private final Map<String, List<Bp>> lines = new HashMap<>();
    private final Map<String, String> packages = new HashMap<>();
    private final List<Bp> functions = new ArrayList<>();
    private final List<ExceptionRequest> exceptions = new ArrayList<>();
    /** Exception types asked for before their class loaded: name, caught, uncaught. */
    private final List<Object[]> deferredExceptions = new ArrayList<>();
    private final List<ClassPrepareRequest> waiting = new ArrayList<>();

    Breakpoints(Session s) {
        this.s = s;
    }

    synchronized List<Object> setLines(String path, List<Map<String, Object>> specs) {
        // A breakpoint set again keeps its id, as clients match stops to it by id.
        Map<Object, Long> ids = new HashMap<>();
        for (Bp old : lines.getOrDefault(path, List.of())) {
            delete(old);
            ids.put(old.line, old.id);
        }
        List<Bp> now = new ArrayList<>();
        List<Object> out = new ArrayList<>();
        packages.put(path, packageOf(path));
        for (Map<String, Object> spec : specs) {
            int line = ((Number) spec.get("line")).intValue();
            Long id = ids.remove(line);
            Bp bp = new Bp(id != null ? id : nextId++, path, line, null, spec);
            now.add(bp);
            if (s.vm != null) for (ReferenceType t : s.vm.allClasses()) bindLine(bp, t);
            out.add(bp.dap());
        }
        lines.put(path, now);
        return out;
    }

    synchronized List<Object> setFunctions(List<Map<String, Object>> specs) {
        Map<Object, Long> ids = new HashMap<>();
        for (Bp old : functions) {
            delete(old);
            ids.put(old.method, old.id);
        }
        functions.clear();
        List<Object> out = new ArrayList<>();
        for (Map<String, Object> spec : specs) {
            Long id = ids.remove(spec.get("name"));
            Bp bp = new Bp(id != null ? id : nextId++, null, 0, (String) spec.get("name"), spec);
            functions.add(bp);
            if (s.vm != null) for (ReferenceType t : s.vm.allClasses()) bindFunction(bp, t);
            out.add(bp.dap());
        }
        return out;
    }

    /** `caught`/`uncaught` filters, and exception options naming types (subtypes included). */
    @SuppressWarnings("unchecked")
    synchronized void setExceptions(Map<String, Object> args) {
        EventRequestManager erm = s.vm.eventRequestManager();
        for (ExceptionRequest r : exceptions) erm.deleteEventRequest(r);
        exceptions.clear();
        deferredExceptions.clear();
        for (ClassPrepareRequest r : waiting) erm.deleteEventRequest(r);
        waiting.clear();
        boolean caught = false, uncaught = false;
        for (Object f : (List<Object>) args.getOrDefault("filters", List.of())) {
            if ("caught".equals(f)) caught = true;
            if ("uncaught".equals(f)) uncaught = true;
        }
        for (Object o : (List<Object>) args.getOrDefault("filterOptions", List.of())) {
            Map<String, Object> fo = (Map<String, Object>) o;
            boolean c = "caught".equals(fo.get("filterId")), u = c || "uncaught".equals(fo.get("filterId"));
            String condition = fo.get("condition") instanceof String ? ((String) fo.get("condition")).trim() : "";
            if (condition.isEmpty()) {
                caught |= c;
                uncaught |= u;
                continue;
            }
            // A condition names exception classes, with a comma between them.
            for (String n : condition.split("\\s*,\\s*")) {
                List<ReferenceType> types = s.vm.classesByName(n);
                if (types.isEmpty()) defer(n, c, u);
                for (ReferenceType t : types) exceptionRequest(t, c, u);
            }
        }
        for (Object o : (List<Object>) args.getOrDefault("exceptionOptions", List.of())) {
            Map<String, Object> opt = (Map<String, Object>) o;
            List<Object> path = (List<Object>) opt.getOrDefault("path", List.of());
            String mode = String.valueOf(opt.get("breakMode"));
            boolean c = mode.equals("always"), u = mode.equals("always") || mode.equals("unhandled") || mode.equals("userUnhandled");
            if (path.size() < 2) {
                caught |= c;
                uncaught |= u;
                continue;
            }
            for (Object n : (List<Object>) ((Map<String, Object>) path.get(path.size() - 1)).get("names")) {
                List<ReferenceType> types = s.vm.classesByName((String) n);
                if (types.isEmpty()) defer((String) n, c, u);
                for (ReferenceType t : types) exceptionRequest(t, c, u);
            }
        }
        if (caught || uncaught) {
            ExceptionRequest r = exceptionRequest(null, caught, uncaught);
            // The class library catches its own exceptions all the time: only the program's count.
            if (caught) for (String p : new String[] {"java.*", "javax.*", "jdk.*", "sun.*", "com.sun.*"}) r.addClassExclusionFilter(p);
        }
        for (ExceptionRequest r : exceptions) r.enable();
    }

    /**
     * An exception class not loaded yet: bound when it loads. The class library's own
     * classes are not watched by the program's class loads, so each gets its own watch.
     */
    private void defer(String name, boolean caught, boolean uncaught) {
        deferredExceptions.add(new Object[] {name, caught, uncaught});
        ClassPrepareRequest r = s.vm.eventRequestManager().createClassPrepareRequest();
        r.addClassFilter(name);
        r.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
        r.enable();
        waiting.add(r);
    }

    private ExceptionRequest exceptionRequest(ReferenceType t, boolean caught, boolean uncaught) {
        ExceptionRequest r = s.vm.eventRequestManager().createExceptionRequest(t, caught, uncaught);
        r.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
        exceptions.add(r);
        return r;
    }

    /** A class loaded: binds what waited for it, and says which breakpoints it verified. */
    synchronized List<Bp> classLoaded(ReferenceType t) {
        List<Bp> changed = new ArrayList<>();
        for (List<Bp> bps : lines.values()) for (Bp bp : bps) if (bindLine(bp, t)) changed.add(bp);
        for (Bp bp : functions) if (bindFunction(bp, t)) changed.add(bp);
        for (Object[] d : new ArrayList<>(deferredExceptions)) {
            if (d[0].equals(t.name())) exceptionRequest(t, (Boolean) d[1], (Boolean) d[2]).enable();
        }
        return changed;
    }

    private boolean bindLine(Bp bp, ReferenceType t) {
        String file = Path.of(bp.source).getFileName().toString();
        try {
            if (!t.sourceName().equals(file)) return false;
        } catch (AbsentInformationException e) {
            return false;
        }
        String pkg = packages.getOrDefault(bp.source, null);
        String typePkg = t.name().contains(".") ? t.name().substring(0, t.name().lastIndexOf('.')) : "";
        if (pkg != null && !pkg.equals(typePkg)) return false;
        // The line itself, else the next one with code (a blank line or a comment holds none).
        for (int line = bp.line; line < bp.line + 8; line++) {
            List<Location> at;
            try {
                at = t.locationsOfLine(line);
            } catch (AbsentInformationException e) {
                return false;
            }
            if (at.isEmpty()) continue;
            return request(bp, at.get(0), line);
        }
        return false;
    }

    private boolean bindFunction(Bp bp, ReferenceType t) {
        String name = bp.method;
        String cls = null;
        int dot = name.lastIndexOf('.');
        if (dot > 0) {
            cls = name.substring(0, dot);
            name = name.substring(dot + 1);
        }
        if (cls != null && !(t.name().equals(cls) || t.name().endsWith("." + cls) || t.name().endsWith("$" + cls))) return false;
        if (cls == null && Values.isLibrary(t.name())) return false;
        boolean any = false;
        for (Method m : t.methodsByName(name)) {
            if (m.isAbstract() || m.isNative() || m.location() == null) continue;
            any |= request(bp, m.location(), m.location().lineNumber());
        }
        return any;
    }

    private boolean request(Bp bp, Location at, int line) {
        for (BreakpointRequest r : bp.requests) if (r.location().equals(at)) return false;
        BreakpointRequest r = s.vm.eventRequestManager().createBreakpointRequest(at);
        r.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
        r.putProperty("bp", bp);
        r.enable();
        bp.requests.add(r);
        bp.verified = true;
        bp.actualLine = line;
        return true;
    }

    private void delete(Bp bp) {
        if (s.vm == null) return;
        for (BreakpointRequest r : bp.requests) {
            try {
                s.vm.eventRequestManager().deleteEventRequest(r);
            } catch (RuntimeException e) {
                // The VM is gone: so is the request.
            }
        }
    }

    /** Whether a hit count says to stop: `3` (the third hit), `>=3`, `>3`, `==3`, `%3`. */
    static boolean hitCountMet(String condition, int hits) {
        String c = condition.trim();
        try {
            if (c.startsWith(">=")) return hits >= Integer.parseInt(c.substring(2).trim());
            if (c.startsWith(">")) return hits > Integer.parseInt(c.substring(1).trim());
            if (c.startsWith("==")) return hits == Integer.parseInt(c.substring(2).trim());
            if (c.startsWith("%")) return hits % Integer.parseInt(c.substring(1).trim()) == 0;
            return hits == Integer.parseInt(c);
        } catch (NumberFormatException e) {
            return true;
        }
    }

    private static String packageOf(String path) {
        try {
            Matcher m = PACKAGE.matcher(Files.readString(Path.of(path)));
            return m.find() ? m.group(1) : "";
        } catch (Exception e) {
            return null;
        }
    }
}
