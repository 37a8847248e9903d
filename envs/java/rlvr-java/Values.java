package rlvr;

import java.lang.reflect.Array;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Typed values between the case file, the answer and the result lines. A type is the tree of
 * rlvr.functions.render.type_tree ("int", ["list", "int"], ["dict", "str", "float"], ...).
 * Arguments become the Java types of the stack's convention (Long, Double, Boolean, String,
 * ArrayList, LinkedHashMap, null); results are encoded from what they are at run time, the
 * type deciding only a map's form, so the host's judge, not this code, says whether a result
 * has the declared type.
 */
final class Values {
    private static final int MAX_DEPTH = 200;

    private Values() {}

    /** The argument for a canonical JSON value of type `t`. */
    static Object arg(Object v, Object t) {
        if (v == null) return null;
        if (t instanceof String kind) {
            if (kind.equals("float")) return real(v);
            return v; // int -> Long, bool -> Boolean, str -> String
        }
        List<?> tree = (List<?>) t;
        String kind = (String) tree.get(0);
        switch (kind) {
            case "optional":
                return arg(v, tree.get(1));
            case "list":
            case "tuple...": {
                List<Object> out = new ArrayList<>();
                for (Object x : (List<?>) v) out.add(arg(x, tree.get(1)));
                return out;
            }
            case "tuple": {
                List<?> xs = (List<?>) v;
                List<Object> out = new ArrayList<>();
                for (int k = 0; k < xs.size(); k++) out.add(arg(xs.get(k), tree.get(k + 1)));
                return out;
            }
            default: { // dict: an object for string keys, else a list of [key, value] pairs
                Map<Object, Object> out = new LinkedHashMap<>();
                if (v instanceof Map<?, ?> m) {
                    for (var e : m.entrySet()) out.put(e.getKey(), arg(e.getValue(), tree.get(2)));
                } else {
                    for (Object pair : (List<?>) v) {
                        List<?> kv = (List<?>) pair;
                        out.put(arg(kv.get(0), tree.get(1)), arg(kv.get(1), tree.get(2)));
                    }
                }
                return out;
            }
        }
    }

    private static Double real(Object v) {
        if (v instanceof Long n) return n.doubleValue();
        if (v instanceof String s) {
            return switch (s) {
                case "nan" -> Double.NaN;
                case "inf" -> Double.POSITIVE_INFINITY;
                default -> Double.NEGATIVE_INFINITY;
            };
        }
        return (Double) v;
    }

    /** `v` fitted to a parameter's class where the answer chose a close cousin (int, arrays). */
    static Object fit(Object v, Class<?> c) {
        if (v instanceof Long n && (c == int.class || c == Integer.class)) return Math.toIntExact(n);
        if (v instanceof Long n && (c == double.class || c == Double.class)) return n.doubleValue();
        if (v instanceof List<?> xs && c.isArray()) {
            Class<?> e = c.getComponentType();
            Object out = Array.newInstance(e, xs.size());
            for (int k = 0; k < xs.size(); k++) Array.set(out, k, fit(xs.get(k), e));
            return out;
        }
        return v;
    }

    /** Canonical JSON of a result; `t` is its declared type (null where it says nothing). */
    static void encode(StringBuilder b, Object v, Object t, int depth) {
        if (depth > MAX_DEPTH) throw new IllegalArgumentException("result nested too deeply");
        List<?> tree = t instanceof List<?> l ? l : null;
        String kind = tree == null ? String.valueOf(t) : (String) tree.get(0);
        if (kind.equals("optional")) {
            encode(b, v, tree.get(1), depth);
        } else if (v == null) {
            b.append("null");
        } else if (v instanceof Boolean x) {
            b.append(x);
        } else if (v instanceof Long || v instanceof Integer || v instanceof Short
                || v instanceof Byte || v instanceof BigInteger) {
            b.append(v);
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d)) b.append("\"nan\"");
            else if (Double.isInfinite(d)) b.append(d > 0 ? "\"inf\"" : "\"-inf\"");
            else b.append(d);
        } else if (v instanceof String || v instanceof Character) {
            Json.quote(b, v.toString());
        } else if (v instanceof Map<?, ?> m) {
            encodeMap(b, m, tree, depth);
        } else if (v instanceof Collection<?> || v.getClass().isArray()) {
            List<Object> xs = new ArrayList<>();
            if (v instanceof Collection<?> c) xs.addAll(c);
            else for (int k = 0; k < Array.getLength(v); k++) xs.add(Array.get(v, k));
            b.append('[');
            for (int k = 0; k < xs.size(); k++) {
                if (k > 0) b.append(',');
                encode(b, xs.get(k), element(tree, kind, k), depth + 1);
            }
            b.append(']');
        } else {
            throw new IllegalArgumentException("cannot encode a " + v.getClass().getName());
        }
    }

    private static Object element(List<?> tree, String kind, int k) {
        if (tree == null) return null;
        if (kind.equals("tuple")) return k + 1 < tree.size() ? tree.get(k + 1) : null;
        return kind.equals("list") || kind.equals("tuple...") ? tree.get(1) : null;
    }

    private static void encodeMap(StringBuilder b, Map<?, ?> m, List<?> tree, int depth) {
        boolean dict = tree != null && tree.get(0).equals("dict");
        boolean strKeys = dict && "str".equals(tree.get(1));
        Object kt = dict ? tree.get(1) : null;
        Object vt = dict ? tree.get(2) : null;
        b.append(strKeys ? '{' : '[');
        boolean first = true;
        for (var e : m.entrySet()) {
            if (!first) b.append(',');
            first = false;
            if (strKeys) {
                if (!(e.getKey() instanceof String key)) {
                    throw new IllegalArgumentException("a map key is not a String: " + e.getKey());
                }
                Json.quote(b, key);
                b.append(':');
                encode(b, e.getValue(), vt, depth + 1);
            } else {
                b.append('[');
                encode(b, e.getKey(), kt, depth + 1);
                b.append(',');
                encode(b, e.getValue(), vt, depth + 1);
                b.append(']');
            }
        }
        b.append(strKeys ? '}' : ']');
    }
}
