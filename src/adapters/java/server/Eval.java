import com.sun.jdi.ArrayReference;
import com.sun.jdi.BooleanValue;
import com.sun.jdi.ClassType;
import com.sun.jdi.DoubleValue;
import com.sun.jdi.Field;
import com.sun.jdi.FloatValue;
import com.sun.jdi.LocalVariable;
import com.sun.jdi.LongValue;
import com.sun.jdi.Method;
import com.sun.jdi.ObjectReference;
import com.sun.jdi.PrimitiveValue;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.StackFrame;
import com.sun.jdi.StringReference;
import com.sun.jdi.Value;
import java.util.ArrayList;
import java.util.List;

/** A small Java expression evaluator over JDI: names, fields, indexes, operators and method calls. */
final class Eval {
    interface Node {
        Object eval() throws Exception;
    }

    /** A class named in an expression, for its static members. */
    static final class TypeName {
        final ReferenceType type;
        TypeName(ReferenceType type) { this.type = type; }
    }

    private final Session s;
    private final Values.Frame frame;
    private final List<String> tokens;
    private int i;

    private Eval(Session s, Values.Frame frame, List<String> tokens) {
        this.s = s;
        this.frame = frame;
        this.tokens = tokens;
    }

    /** Evaluates `text` in `frame` (null: literals and operators only). */
    static Value evaluate(Session s, Values.Frame frame, String text) throws Exception {
        Eval e = new Eval(s, frame, lex(text));
        Node n = e.or();
        if (e.i < e.tokens.size()) throw new IllegalArgumentException("cannot parse " + text + ": unexpected " + e.tokens.get(e.i));
        Object v = n.eval();
        if (v instanceof TypeName) throw new IllegalArgumentException(text + " is a class, not a value");
        return (Value) v;
    }

    static List<String> lex(String t) {
        List<String> out = new ArrayList<>();
        int k = 0;
        while (k < t.length()) {
            char c = t.charAt(k);
            if (Character.isWhitespace(c)) { k++; continue; }
            int start = k;
            if (Character.isJavaIdentifierStart(c)) {
                while (k < t.length() && Character.isJavaIdentifierPart(t.charAt(k))) k++;
            } else if (Character.isDigit(c) || (c == '.' && k + 1 < t.length() && Character.isDigit(t.charAt(k + 1)))) {
                while (k < t.length() && (Character.isLetterOrDigit(t.charAt(k)) || t.charAt(k) == '.'
                        || ((t.charAt(k) == '-' || t.charAt(k) == '+') && (t.charAt(k - 1) == 'e' || t.charAt(k - 1) == 'E')))) k++;
            } else if (c == '"' || c == '\'') {
                k++;
                while (k < t.length() && t.charAt(k) != c) k += t.charAt(k) == '\\' ? 2 : 1;
                if (k >= t.length()) throw new IllegalArgumentException("cannot parse " + t + ": unterminated " + (c == '"' ? "string" : "character"));
                k++;
            } else if (k + 1 < t.length() && List.of("==", "!=", "<=", ">=", "&&", "||").contains(t.substring(k, k + 2))) {
                k += 2;
            } else if ("()[].,!<>+-*/%".indexOf(c) >= 0) {
                k++;
            } else {
                throw new IllegalArgumentException("cannot parse " + t + ": unexpected " + c);
            }
            out.add(t.substring(start, k));
        }
        return out;
    }

    private String peek() { return i < tokens.size() ? tokens.get(i) : ""; }

    private boolean take(String tok) {
        if (peek().equals(tok)) { i++; return true; }
        return false;
    }

    private void expect(String tok) {
        if (!take(tok)) throw new IllegalArgumentException("cannot parse: expected " + tok + (i < tokens.size() ? " before " + peek() : " at the end"));
    }

    private Node or() {
        Node l = and();
        while (take("||")) {
            Node a = l, b = and();
            l = () -> bool(a.eval()) ? s.vm.mirrorOf(true) : s.vm.mirrorOf(bool(b.eval()));
        }
        return l;
    }

    private Node and() {
        Node l = equality();
        while (take("&&")) {
            Node a = l, b = equality();
            l = () -> !bool(a.eval()) ? s.vm.mirrorOf(false) : s.vm.mirrorOf(bool(b.eval()));
        }
        return l;
    }

    private Node equality() {
        Node l = relation();
        while (peek().equals("==") || peek().equals("!=")) {
            boolean eq = tokens.get(i++).equals("==");
            Node a = l, b = relation();
            l = () -> s.vm.mirrorOf(same(value(a.eval()), value(b.eval())) == eq);
        }
        return l;
    }

    private Node relation() {
        Node l = sum();
        while (List.of("<", ">", "<=", ">=").contains(peek())) {
            String op = tokens.get(i++);
            Node a = l, b = sum();
            l = () -> {
                double x = number(a.eval()), y = number(b.eval());
                boolean r = op.equals("<") ? x < y : op.equals(">") ? x > y : op.equals("<=") ? x <= y : x >= y;
                return s.vm.mirrorOf(r);
            };
        }
        return l;
    }

    private Node sum() {
        Node l = product();
        while (peek().equals("+") || peek().equals("-")) {
            String op = tokens.get(i++);
            Node a = l, b = product();
            l = () -> {
                Value x = value(a.eval()), y = value(b.eval());
                if (op.equals("+") && (x instanceof StringReference || y instanceof StringReference)) {
                    return keep(s.vm.mirrorOf(text(x) + text(y)));
                }
                return arithmetic(op, x, y);
            };
        }
        return l;
    }

    private Node product() {
        Node l = unary();
        while (peek().equals("*") || peek().equals("/") || peek().equals("%")) {
            String op = tokens.get(i++);
            Node a = l, b = unary();
            l = () -> arithmetic(op, value(a.eval()), value(b.eval()));
        }
        return l;
    }

    private Node unary() {
        if (take("!")) {
            Node a = unary();
            return () -> s.vm.mirrorOf(!bool(a.eval()));
        }
        if (take("-")) {
            Node a = unary();
            return () -> arithmetic("-", s.vm.mirrorOf(0), value(a.eval()));
        }
        return postfix();
    }

    private Node postfix() {
        Node n = primary();
        while (true) {
            if (take(".")) {
                String name = ident();
                Node target = n;
                if (take("(")) {
                    List<Node> args = arguments();
                    n = () -> call(target.eval(), name, args);
                } else {
                    n = () -> member(target.eval(), name);
                }
            } else if (take("[")) {
                Node target = n, index = or();
                expect("]");
                n = () -> {
                    Value a = value(target.eval());
                    if (!(a instanceof ArrayReference)) throw new IllegalArgumentException("only arrays take [index]");
                    int k = (int) number(index.eval());
                    ArrayReference arr = (ArrayReference) a;
                    if (k < 0 || k >= arr.length()) throw new IllegalArgumentException("index " + k + " is outside the array's " + arr.length() + " elements");
                    return arr.getValue(k);
                };
            } else {
                return n;
            }
        }
    }

    private List<Node> arguments() {
        List<Node> args = new ArrayList<>();
        if (take(")")) return args;
        do { args.add(or()); } while (take(","));
        expect(")");
        return args;
    }

    private String ident() {
        String t = peek();
        if (t.isEmpty() || !Character.isJavaIdentifierStart(t.charAt(0))) throw new IllegalArgumentException("cannot parse: expected a name" + (t.isEmpty() ? " at the end" : " before " + t));
        i++;
        return t;
    }

    private Node primary() {
        String t = peek();
        if (t.isEmpty()) throw new IllegalArgumentException("cannot parse: the expression ends early");
        if (take("(")) {
            Node n = or();
            expect(")");
            return n;
        }
        char c = t.charAt(0);
        i++;
        if (c == '"') {
            String lit = unescape(t.substring(1, t.length() - 1));
            return () -> keep(s.vm.mirrorOf(lit));
        }
        if (c == '\'') {
            String lit = unescape(t.substring(1, t.length() - 1));
            if (lit.length() != 1) throw new IllegalArgumentException("cannot parse " + t + ": a char holds one character");
            return () -> s.vm.mirrorOf(lit.charAt(0));
        }
        if (Character.isDigit(c) || c == '.') return number(t);
        switch (t) {
            case "true": return () -> s.vm.mirrorOf(true);
            case "false": return () -> s.vm.mirrorOf(false);
            case "null": return () -> null;
            case "this": return () -> frame().thisObject();
            default: break;
        }
        if (!Character.isJavaIdentifierStart(c)) throw new IllegalArgumentException("cannot parse: unexpected " + t);
        if (take("(")) {
            List<Node> args = arguments();
            return () -> {
                StackFrame f = frame();
                Object self = f.thisObject() != null ? f.thisObject() : new TypeName(f.location().declaringType());
                return call(self, t, args);
            };
        }
        return () -> name(t);
    }

    private Node number(String t) {
        String n = t.replace("_", "");
        try {
            if (n.endsWith("L") || n.endsWith("l")) {
                long v = Long.parseLong(n.substring(0, n.length() - 1));
                return () -> s.vm.mirrorOf(v);
            }
            if (n.endsWith("f") || n.endsWith("F")) {
                float v = Float.parseFloat(n);
                return () -> s.vm.mirrorOf(v);
            }
            if (n.contains(".") || n.contains("e") || n.contains("E") || n.endsWith("d") || n.endsWith("D")) {
                double v = Double.parseDouble(n);
                return () -> s.vm.mirrorOf(v);
            }
            int v = Integer.parseInt(n);
            return () -> s.vm.mirrorOf(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("cannot parse " + t + ": not a number");
        }
    }

    private static String unescape(String t) {
        return (String) Json.parse("\"" + t.replace("\\'", "'") + "\"");
    }

    private StackFrame frame() throws Exception {
        if (frame == null) throw new IllegalArgumentException("names are read only in a stopped frame");
        return frame.frame();
    }

    private Object name(String n) throws Exception {
        StackFrame f = frame();
        try {
            LocalVariable v = f.visibleVariableByName(n);
            if (v != null) return f.getValue(v);
        } catch (com.sun.jdi.AbsentInformationException e) {
            // No local names compiled in: fields and classes still resolve.
        }
        ObjectReference self = f.thisObject();
        ReferenceType here = f.location().declaringType();
        Field field = (self != null ? self.referenceType() : here).fieldByName(n);
        if (field != null) return field.isStatic() ? field.declaringType().getValue(field) : self.getValue(field);
        ReferenceType type = classNamed(n);
        if (type != null) return new TypeName(type);
        throw new IllegalArgumentException(n + " is not defined here");
    }

    private ReferenceType classNamed(String n) {
        List<ReferenceType> exact = s.vm.classesByName(n);
        if (!exact.isEmpty()) return exact.get(0);
        List<ReferenceType> lang = s.vm.classesByName("java.lang." + n);
        if (!lang.isEmpty()) return lang.get(0);
        for (ReferenceType t : s.vm.allClasses()) {
            if (t.name().endsWith("." + n) || t.name().endsWith("$" + n)) return t;
        }
        return null;
    }

    private Object member(Object target, String name) throws Exception {
        if (target instanceof TypeName) {
            ReferenceType t = ((TypeName) target).type;
            Field f = t.fieldByName(name);
            if (f == null || !f.isStatic()) throw new IllegalArgumentException(t.name() + " has no static field " + name);
            return t.getValue(f);
        }
        Value v = value(target);
        if (v instanceof ArrayReference && name.equals("length")) return s.vm.mirrorOf(((ArrayReference) v).length());
        if (!(v instanceof ObjectReference)) throw new IllegalArgumentException("cannot read ." + name + " of " + (v == null ? "null" : v.type().name()));
        ObjectReference o = (ObjectReference) v;
        Field f = o.referenceType().fieldByName(name);
        if (f == null) throw new IllegalArgumentException(o.referenceType().name() + " has no field " + name);
        return o.getValue(f);
    }

    private Object call(Object target, String name, List<Node> argNodes) throws Exception {
        List<Value> args = new ArrayList<>();
        for (Node a : argNodes) args.add(value(a.eval()));
        if (target instanceof TypeName) {
            ReferenceType t = ((TypeName) target).type;
            Method m = Invoke.find(t, name, args.size());
            if (m == null || !m.isStatic() || !(t instanceof ClassType)) throw new IllegalArgumentException(t.name() + " has no static method " + name + " taking " + args.size() + " arguments");
            return Invoke.callStatic(s, (ClassType) t, m, args);
        }
        Value v = value(target);
        if (v == null) throw new IllegalArgumentException("cannot call " + name + "() on null");
        if (!(v instanceof ObjectReference)) throw new IllegalArgumentException("cannot call " + name + "() on a " + v.type().name());
        return Invoke.call(s, (ObjectReference) v, name, args);
    }

    private static Value value(Object o) {
        if (o instanceof TypeName) throw new IllegalArgumentException(((TypeName) o).type.name() + " is a class, not a value");
        return (Value) o;
    }

    private boolean bool(Object o) {
        Value v = value(o);
        if (v instanceof BooleanValue) return ((BooleanValue) v).value();
        if (v instanceof ObjectReference && ((ObjectReference) v).referenceType().name().equals("java.lang.Boolean")) {
            return bool(((ObjectReference) v).getValue(((ObjectReference) v).referenceType().fieldByName("value")));
        }
        throw new IllegalArgumentException("expected a boolean, not " + (v == null ? "null" : v.type().name()));
    }

    private static Value unbox(Value v) {
        if (v instanceof ObjectReference && Values.isBoxed(v.type().name())) {
            ObjectReference o = (ObjectReference) v;
            return o.getValue(o.referenceType().fieldByName("value"));
        }
        return v;
    }

    private static double number(Object o) {
        Value v = unbox(value(o));
        if (v instanceof PrimitiveValue && !(v instanceof BooleanValue)) return ((PrimitiveValue) v).doubleValue();
        throw new IllegalArgumentException("expected a number, not " + (v == null ? "null" : v.type().name()));
    }

    private boolean same(Value a, Value b) {
        Value x = unbox(a), y = unbox(b);
        if (x == null || y == null) return x == y;
        if (x instanceof BooleanValue && y instanceof BooleanValue) return ((BooleanValue) x).value() == ((BooleanValue) y).value();
        if (x instanceof PrimitiveValue && y instanceof PrimitiveValue) return ((PrimitiveValue) x).doubleValue() == ((PrimitiveValue) y).doubleValue();
        return x.equals(y);
    }

    private Value arithmetic(String op, Value a, Value b) {
        Value x = unbox(a), y = unbox(b);
        double dx = number(x), dy = number(y);
        boolean floating = x instanceof DoubleValue || y instanceof DoubleValue || x instanceof FloatValue || y instanceof FloatValue;
        if (floating) {
            double r = op.equals("+") ? dx + dy : op.equals("-") ? dx - dy : op.equals("*") ? dx * dy : op.equals("/") ? dx / dy : dx % dy;
            return s.vm.mirrorOf(r);
        }
        long lx = ((PrimitiveValue) x).longValue(), ly = ((PrimitiveValue) y).longValue();
        if ((op.equals("/") || op.equals("%")) && ly == 0) throw new IllegalArgumentException("division by zero");
        long r = op.equals("+") ? lx + ly : op.equals("-") ? lx - ly : op.equals("*") ? lx * ly : op.equals("/") ? lx / ly : lx % ly;
        if (x instanceof LongValue || y instanceof LongValue) return s.vm.mirrorOf(r);
        return s.vm.mirrorOf((int) r);
    }

    private String text(Value v) throws Exception {
        if (v == null) return "null";
        if (v instanceof StringReference) return ((StringReference) v).value();
        if (v instanceof PrimitiveValue) return v.toString();
        Value t = Invoke.call(s, (ObjectReference) v, "toString", List.of());
        return t instanceof StringReference ? ((StringReference) t).value() : "null";
    }

    private Value keep(StringReference v) {
        s.hold(v);
        return v;
    }
}
