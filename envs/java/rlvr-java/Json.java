package rlvr;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON the function driver reads (its case file) and writes (one result per case), in JDK
 * types only: null, Boolean, Long (a number without fraction or exponent), Double, String,
 * ArrayList and LinkedHashMap. Written here rather than taken from a library because the
 * image has none, and because the arguments must not be literals in the driver's source: javac
 * caps a method at 64 KiB of bytecode, which a 10,000-element list passes.
 */
public final class Json {
    private static final int MAX_DEPTH = 200;
    private final String s;
    private int i;

    private Json(String s) {
        this.s = s;
    }

    public static Object parse(String text) {
        Json p = new Json(text);
        Object v = p.value(0);
        p.space();
        if (p.i != p.s.length()) throw p.error("trailing data");
        return v;
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("case file: " + what + " at offset " + i);
    }

    private void space() {
        while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) i++;
    }

    private Object value(int depth) {
        if (depth > MAX_DEPTH) throw error("nested too deeply");
        space();
        if (i >= s.length()) throw error("unexpected end");
        char c = s.charAt(i);
        if (c == '{') return object(depth);
        if (c == '[') return array(depth);
        if (c == '"') return string();
        if (s.startsWith("true", i)) return word(4, Boolean.TRUE);
        if (s.startsWith("false", i)) return word(5, Boolean.FALSE);
        if (s.startsWith("null", i)) return word(4, null);
        return number();
    }

    private Object word(int n, Object v) {
        i += n;
        return v;
    }

    private Map<String, Object> object(int depth) {
        Map<String, Object> out = new LinkedHashMap<>();
        i++;
        space();
        if (i < s.length() && s.charAt(i) == '}') {
            i++;
            return out;
        }
        while (true) {
            space();
            if (i >= s.length() || s.charAt(i) != '"') throw error("expected a key");
            String key = string();
            space();
            if (i >= s.length() || s.charAt(i++) != ':') throw error("expected ':'");
            out.put(key, value(depth + 1));
            space();
            if (i >= s.length()) throw error("unexpected end");
            char c = s.charAt(i++);
            if (c == '}') return out;
            if (c != ',') throw error("expected ',' or '}'");
        }
    }

    private List<Object> array(int depth) {
        List<Object> out = new ArrayList<>();
        i++;
        space();
        if (i < s.length() && s.charAt(i) == ']') {
            i++;
            return out;
        }
        while (true) {
            out.add(value(depth + 1));
            space();
            if (i >= s.length()) throw error("unexpected end");
            char c = s.charAt(i++);
            if (c == ']') return out;
            if (c != ',') throw error("expected ',' or ']'");
        }
    }

    private String string() {
        StringBuilder b = new StringBuilder();
        i++;
        while (true) {
            if (i >= s.length()) throw error("unterminated string");
            char c = s.charAt(i++);
            if (c == '"') return b.toString();
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char e = s.charAt(i++);
            switch (e) {
                case 'n' -> b.append('\n');
                case 't' -> b.append('\t');
                case 'r' -> b.append('\r');
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'u' -> {
                    b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    i += 4;
                }
                default -> b.append(e); // '"', '\\', '/'
            }
        }
    }

    private Object number() {
        int start = i;
        while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
        String t = s.substring(start, i);
        if (t.isEmpty()) throw error("unexpected character " + s.charAt(i));
        boolean real = t.indexOf('.') >= 0 || t.indexOf('e') >= 0 || t.indexOf('E') >= 0;
        return real ? (Object) Double.parseDouble(t) : (Object) Long.parseLong(t);
    }

    /** `x` as a JSON string literal, ASCII only (anything else as \\u escapes). */
    public static void quote(StringBuilder b, String x) {
        b.append('"');
        for (int k = 0; k < x.length(); k++) {
            char c = x.charAt(k);
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c == '\n') b.append("\\n");
            else if (c == '\t') b.append("\\t");
            else if (c == '\r') b.append("\\r");
            else if (c < 0x20 || c > 0x7e) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        b.append('"');
    }
}
