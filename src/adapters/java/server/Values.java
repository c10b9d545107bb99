import com.sun.jdi.AbsentInformationException;
import com.sun.jdi.ArrayReference;
import com.sun.jdi.CharValue;
import com.sun.jdi.ClassType;
import com.sun.jdi.Field;
import com.sun.jdi.InterfaceType;
import com.sun.jdi.LocalVariable;
import com.sun.jdi.Method;
import com.sun.jdi.ObjectReference;
import com.sun.jdi.PrimitiveValue;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.StackFrame;
import com.sun.jdi.StringReference;
import com.sun.jdi.ThreadReference;
import com.sun.jdi.Type;
import com.sun.jdi.Value;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Variables: the references a stop hands out, and how a value reads. */
final class Values {
    private Values() {}

    /** What a variablesReference stands for. */
    static final class Frame {
        final ThreadReference thread;
        final int index;
        Frame(ThreadReference thread, int index) { this.thread = thread; this.index = index; }
        StackFrame frame() throws Exception { return thread.frame(index); }
    }

    private static final Map<Long, Object> refs = new HashMap<>();
    private static long next = 1;

    static synchronized long ref(Object o) {
        long id = next++;
        refs.put(id, o);
        return id;
    }

    static synchronized Object lookup(long id) {
        return refs.get(id);
    }

    static synchronized void forget() {
        refs.clear();
    }

    private static final String[] LIBRARY = {"java.", "javax.", "jdk.", "sun.", "com.sun."};

    static boolean isLibrary(String type) {
        for (String p : LIBRARY) if (type.startsWith(p)) return true;
        return false;
    }

    static String simple(String type) {
        int dot = type.lastIndexOf('.');
        return dot < 0 ? type : type.substring(dot + 1);
    }

    static boolean implementsType(ReferenceType t, String name) {
        if (!(t instanceof ClassType)) return false;
        for (InterfaceType i : ((ClassType) t).allInterfaces()) if (i.name().equals(name)) return true;
        return false;
    }

    static boolean isBoxed(String type) {
        switch (type) {
            case "java.lang.Integer": case "java.lang.Long": case "java.lang.Double": case "java.lang.Float":
            case "java.lang.Short": case "java.lang.Byte": case "java.lang.Character": case "java.lang.Boolean":
                return true;
            default:
                return false;
        }
    }

    /** One variable: name, value, type and the reference to its children. */
    static Map<String, Object> variable(Session s, String name, Value v, String evaluateName) {
        Map<String, Object> m = Json.obj("name", name);
        describe(s, v, m);
        if (evaluateName != null) m.put("evaluateName", evaluateName);
        return m;
    }

    static void describe(Session s, Value v, Map<String, Object> into) {
        long ref = 0;
        String text;
        String type = v == null ? "" : v.type().name();
        if (v == null) {
            text = "null";
        } else if (v instanceof CharValue) {
            text = "'" + ((CharValue) v).value() + "'";
        } else if (v instanceof PrimitiveValue) {
            text = v.toString();
        } else if (v instanceof StringReference) {
            text = Json.quoted(((StringReference) v).value());
        } else if (v instanceof ArrayReference) {
            ArrayReference a = (ArrayReference) v;
            String component = simple(type.substring(0, type.length() - 2));
            text = component + "[" + a.length() + "]";
            if (a.length() > 0) ref = ref(a);
            into.put("indexedVariables", (long) a.length());
        } else {
            ObjectReference o = (ObjectReference) v;
            ReferenceType t = o.referenceType();
            if (isBoxed(type)) {
                text = String.valueOf(o.getValue(t.fieldByName("value")));
                if (type.equals("java.lang.Character")) text = "'" + text + "'";
            } else if (t instanceof ClassType && ((ClassType) t).isEnum()) {
                Value n = o.getValue(t.fieldByName("name"));
                text = simple(type) + "." + (n instanceof StringReference ? ((StringReference) n).value() : "?");
            } else if (implementsType(t, "java.util.Collection") || implementsType(t, "java.util.Map")) {
                String n = size(s, o);
                text = simple(type) + " size=" + n;
                ref = ref(o);
                if (implementsType(t, "java.util.Collection") && !n.equals("?")) into.put("indexedVariables", Long.parseLong(n));
            } else {
                text = preview(s, o);
                ref = ref(o);
            }
        }
        into.put("value", text);
        into.put("type", type);
        into.put("variablesReference", ref);
    }

    private static String size(Session s, ObjectReference o) {
        try {
            return String.valueOf(Invoke.call(s, o, "size", List.of()));
        } catch (Exception e) {
            return "?";
        }
    }

    /** A user class's toString() where it has its own, else the type's name. */
    static String preview(Session s, ObjectReference o) {
        ReferenceType t = o.referenceType();
        String name = simple(t.name());
        if (isLibrary(t.name()) || !(t instanceof ClassType)) return name;
        Method m = ((ClassType) t).concreteMethodByName("toString", "()Ljava/lang/String;");
        if (m == null || m.declaringType().name().equals("java.lang.Object")) return name;
        try {
            Value v = Invoke.call(s, o, m, List.of());
            return v instanceof StringReference ? ((StringReference) v).value() : name;
        } catch (Invoke.Timeout e) {
            return "<not read: " + e.getMessage() + ">";
        } catch (Exception e) {
            return name;
        }
    }

    static String exceptionText(Session s, ObjectReference e) {
        String type = e.referenceType().name();
        String message = message(s, e);
        return message == null ? type : type + ": " + message;
    }

    /** getMessage(), or null where it has none or cannot be read. */
    static String message(Session s, ObjectReference e) {
        try {
            Value v = Invoke.call(s, e, "getMessage", List.of());
            return v instanceof StringReference ? ((StringReference) v).value() : null;
        } catch (Exception x) {
            Field f = e.referenceType().fieldByName("detailMessage");
            Value v = f == null ? null : e.getValue(f);
            return v instanceof StringReference ? ((StringReference) v).value() : null;
        }
    }

    /** The children of a reference, for `variables`. */
    static List<Object> children(Session s, Object container, long start, long count) throws Exception {
        List<Object> out = new ArrayList<>();
        if (container instanceof Frame) {
            locals(s, (Frame) container, out);
        } else if (container instanceof ArrayReference) {
            elements(s, (ArrayReference) container, start, count, out);
        } else if (container instanceof ObjectReference) {
            ObjectReference o = (ObjectReference) container;
            ReferenceType t = o.referenceType();
            if (implementsType(t, "java.util.Map")) {
                entries(s, o, out);
            } else if (implementsType(t, "java.util.Collection")) {
                Value a = Invoke.call(s, o, "toArray", List.of());
                if (a instanceof ArrayReference) elements(s, (ArrayReference) a, start, count, out);
            } else {
                for (Field f : t.allFields()) {
                    if (f.isStatic()) continue;
                    out.add(variable(s, f.name(), o.getValue(f), null));
                }
            }
        }
        return out;
    }

    private static void elements(Session s, ArrayReference a, long start, long count, List<Object> out) {
        int from = (int) Math.min(start, a.length());
        int to = count > 0 ? (int) Math.min(a.length(), from + count) : a.length();
        for (int k = from; k < to; k++) out.add(variable(s, "[" + k + "]", a.getValue(k), null));
    }

    private static void entries(Session s, ObjectReference map, List<Object> out) throws Exception {
        Value set = Invoke.call(s, map, "entrySet", List.of());
        if (!(set instanceof ObjectReference)) return;
        Value a = Invoke.call(s, (ObjectReference) set, "toArray", List.of());
        if (!(a instanceof ArrayReference)) return;
        for (Value e : ((ArrayReference) a).getValues()) {
            if (!(e instanceof ObjectReference)) continue;
            Value k = Invoke.call(s, (ObjectReference) e, "getKey", List.of());
            Value v = Invoke.call(s, (ObjectReference) e, "getValue", List.of());
            Map<String, Object> key = new HashMap<>();
            describe(s, k, key);
            out.add(variable(s, String.valueOf(key.get("value")), v, null));
        }
    }

    private static void locals(Session s, Frame f, List<Object> out) throws Exception {
        // Every value is read before any is described: a toString() run for a preview
        // resumes the thread, and the frame read before it is then gone.
        StackFrame frame = f.frame();
        List<String> names = new ArrayList<>();
        List<Value> values = new ArrayList<>();
        ObjectReference self = frame.thisObject();
        if (self != null) {
            names.add("this");
            values.add(self);
        }
        if (f.index == 0 && f.thread.equals(s.stopThread) && s.returnedFrom != null) {
            names.add("(return) " + s.returnedFrom);
            values.add(s.returned);
        }
        int locals = names.size();
        try {
            List<LocalVariable> vars = frame.visibleVariables();
            Map<LocalVariable, Value> read = frame.getValues(vars);
            for (LocalVariable v : vars) {
                names.add(v.name());
                values.add(read.get(v));
            }
        } catch (AbsentInformationException e) {
            List<Value> args = frame.getArgumentValues();
            for (int k = 0; k < args.size(); k++) {
                names.add("arg" + k);
                values.add(args.get(k));
            }
        }
        for (Value v : values) if (v instanceof ObjectReference) s.hold((ObjectReference) v);
        for (int k = 0; k < names.size(); k++) {
            String n = names.get(k);
            boolean named = k >= locals && !n.startsWith("arg") || n.equals("this");
            out.add(variable(s, n, values.get(k), named ? n : null));
        }
    }

    /** Gives a local, field or element a new value; answers the variable as it now reads. */
    static Map<String, Object> set(Session s, Object container, String name, String text) throws Exception {
        if (container instanceof Frame) {
            Frame f = (Frame) container;
            StackFrame frame = f.frame();
            LocalVariable v = frame.visibleVariableByName(name);
            if (v == null) throw new IllegalArgumentException("no local named " + name);
            Value nv = convert(s, Eval.evaluate(s, f, text), v.type(), name);
            frame = f.frame();
            frame.setValue(v, nv);
            return variable(s, name, f.frame().getValue(v), name);
        }
        if (container instanceof ArrayReference) {
            ArrayReference a = (ArrayReference) container;
            int k = Integer.parseInt(name.replaceAll("[\\[\\]]", ""));
            Type component = ((com.sun.jdi.ArrayType) a.referenceType()).componentType();
            a.setValue(k, convert(s, Eval.evaluate(s, null, text), component, name));
            return variable(s, name, a.getValue(k), null);
        }
        if (container instanceof ObjectReference) {
            ObjectReference o = (ObjectReference) container;
            Field field = o.referenceType().fieldByName(name);
            if (field == null) throw new IllegalArgumentException(o.referenceType().name() + " has no field " + name);
            o.setValue(field, convert(s, Eval.evaluate(s, null, text), field.type(), name));
            return variable(s, name, o.getValue(field), null);
        }
        throw new IllegalArgumentException("that variable cannot be set");
    }

    /** A value as the target's type takes it: numbers narrowed or widened, strings as they are. */
    static Value convert(Session s, Value v, Type target, String name) {
        String t = target.name();
        if (v instanceof PrimitiveValue && !(v instanceof com.sun.jdi.BooleanValue)) {
            PrimitiveValue p = (PrimitiveValue) v;
            switch (t) {
                case "int": return s.vm.mirrorOf(p.intValue());
                case "long": return s.vm.mirrorOf(p.longValue());
                case "double": return s.vm.mirrorOf(p.doubleValue());
                case "float": return s.vm.mirrorOf(p.floatValue());
                case "short": return s.vm.mirrorOf(p.shortValue());
                case "byte": return s.vm.mirrorOf(p.byteValue());
                case "char": return s.vm.mirrorOf(p.charValue());
                default: break;
            }
        }
        if (target instanceof com.sun.jdi.PrimitiveType && !t.equals("boolean") && !(v instanceof PrimitiveValue)) {
            throw new IllegalArgumentException(name + " is a" + (t.startsWith("i") ? "n " : " ") + t + ": give a number, not " + (v == null ? "null" : v.type().name()));
        }
        if (t.equals("boolean") && !(v instanceof com.sun.jdi.BooleanValue)) {
            throw new IllegalArgumentException(name + " is a boolean: give true or false");
        }
        if (t.equals("java.lang.String") && v != null && !(v instanceof StringReference)) {
            throw new IllegalArgumentException(name + " is a String: give a quoted string such as \"text\"");
        }
        return v;
    }
}
