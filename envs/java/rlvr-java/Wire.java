package rlvr;

import java.lang.reflect.Array;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;

/**
 * Plain data on the pipe between the judge's JVM and the answer's: null, booleans, integers,
 * doubles, strings and lists of these, as space-separated tokens ("i:3", "s:base64", "[ ... ]").
 * Each side decodes with its own copy of this class into JDK types only, so nothing the answer
 * defines (a class, an equals, a toString) ever reaches the judge.
 */
public final class Wire {
    private Wire() {}

    public static String encode(Object x) {
        StringBuilder sb = new StringBuilder();
        put(sb, x, 0);
        return sb.toString().trim();
    }

    private static void put(StringBuilder sb, Object x, int depth) {
        if (depth > 64) throw new IllegalArgumentException("value nested too deeply");
        if (x == null) sb.append("n ");
        else if (x instanceof Boolean b) sb.append("b:").append(b).append(' ');
        else if (x instanceof Integer || x instanceof Long || x instanceof Short
                || x instanceof Byte) sb.append("i:").append(((Number) x).longValue()).append(' ');
        else if (x instanceof Double || x instanceof Float)
            sb.append("d:").append(((Number) x).doubleValue()).append(' ');
        else if (x instanceof Character c) put(sb, String.valueOf(c), depth);
        else if (x instanceof String s) sb.append("s:").append(Base64.getEncoder()
                .encodeToString(s.getBytes(StandardCharsets.UTF_8))).append(' ');
        else if (x.getClass().isArray()) {
            sb.append("[ ");
            for (int k = 0; k < Array.getLength(x); k++) put(sb, Array.get(x, k), depth + 1);
            sb.append("] ");
        } else if (x instanceof Collection<?> c) {
            sb.append("[ ");
            for (Object e : c) put(sb, e, depth + 1);
            sb.append("] ");
        } else throw new IllegalArgumentException("cannot send a " + x.getClass().getName());
    }

    public static Object decode(String text) {
        Iterator<String> it = List.of(text.trim().split(" +")).iterator();
        Object v = take(it, it.next(), 0);
        if (it.hasNext()) throw new IllegalArgumentException("trailing data");
        return v;
    }

    private static Object take(Iterator<String> it, String t, int depth) {
        if (depth > 64) throw new IllegalArgumentException("value nested too deeply");
        if (t.equals("n")) return null;
        if (t.equals("[")) {
            List<Object> out = new ArrayList<>();
            for (String u = it.next(); !u.equals("]"); u = it.next()) out.add(take(it, u, depth + 1));
            return out;
        }
        String v = t.substring(2);
        return switch (t.substring(0, 2)) {
            case "b:" -> Boolean.parseBoolean(v);
            case "i:" -> Long.parseLong(v);
            case "d:" -> Double.parseDouble(v);
            case "s:" -> new String(Base64.getDecoder().decode(v), StandardCharsets.UTF_8);
            default -> throw new IllegalArgumentException("unknown token " + t);
        };
    }

    /** The open file descriptor `n` (the runner's pipes are root's: /dev/fd/n cannot reopen them). */
    static java.io.FileDescriptor fd(int n) throws ReflectiveOperationException {
        var make = java.io.FileDescriptor.class.getDeclaredConstructor(int.class);
        make.setAccessible(true); // needs --add-opens java.base/java.io=ALL-UNNAMED
        return make.newInstance(n);
    }
}
