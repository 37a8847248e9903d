package rlvr;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The answer's side of the java-tests mode, in a JVM of its own under the answer's uid, holding
 * nothing but the answer:
 *
 *     java ... rlvr.AnswerServer ANSWER_DIR/Solution.java        (RLVR_RPC_FDS = read,write)
 *
 * Compiles Solution.java in this JVM (Compile), then serves `call NAME [args]` lines with the
 * public static method of that name and arity, converting the plain-data arguments to its
 * parameter types (int, long, double, boolean, String, arrays and Lists of these, nested).
 * Replies: `ok VALUE`, `raise [TYPE, MESSAGE]` when the method threw, `fail MESSAGE` when the
 * call could not be made. Everything in this JVM is the answer's to change, and that is fine:
 * the judge only decodes plain data from it, and the report is written by the judge's JVM.
 */
public final class AnswerServer {
    private AnswerServer() {}

    public static void main(String[] argv) throws Exception {
        String[] fds = System.getenv("RLVR_RPC_FDS").split(",");
        var in = new BufferedReader(new InputStreamReader(
                new FileInputStream(Wire.fd(Integer.parseInt(fds[0]))), StandardCharsets.UTF_8));
        OutputStream out = new FileOutputStream(Wire.fd(Integer.parseInt(fds[1])));
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true));
        Class<?> solution = null;
        String broken = null;
        PrintStream err = System.err;
        var said = new ByteArrayOutputStream();
        System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
        try {
            solution = Compile.load(Path.of(argv[0]), "Solution");
            if (solution == null) broken = "the answer does not compile: "
                    + said.toString(StandardCharsets.UTF_8).strip().replaceAll("\\s+", " ");
        } catch (Throwable t) {
            broken = "the answer could not be loaded: " + t;
        } finally {
            System.setErr(err);
            err.print(said.toString(StandardCharsets.UTF_8));
        }
        if (broken != null && broken.length() > 600) broken = broken.substring(0, 600) + " ...";
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String reply;
            try {
                if (broken != null) throw new IllegalStateException(broken);
                String[] parts = line.split(" ", 3);
                Object value = invoke(solution, parts[1], (List<?>) Wire.decode(parts[2]));
                reply = "ok " + Wire.encode(value);
            } catch (InvocationTargetException e) {
                Throwable c = e.getCause();
                reply = "raise " + Wire.encode(List.of(c.getClass().getName(), String.valueOf(c.getMessage())));
            } catch (Throwable t) {
                reply = "fail " + Wire.encode(t instanceof IllegalStateException ? t.getMessage() : String.valueOf(t));
            }
            out.write((reply + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
        Runtime.getRuntime().halt(0); // threads or hooks the answer left cannot hold the job open
    }

    static Object invoke(Class<?> c, String name, List<?> args) throws Exception {
        Exception last = null;
        for (Method m : c.getMethods()) {
            if (!m.getName().equals(name) || !Modifier.isStatic(m.getModifiers())
                    || m.getParameterCount() != args.size()) continue;
            Type[] types = m.getGenericParameterTypes();
            Object[] values = new Object[args.size()];
            try {
                for (int k = 0; k < values.length; k++) values[k] = convert(args.get(k), types[k]);
            } catch (IllegalArgumentException | ArithmeticException | ClassCastException e) {
                last = e;
                continue;
            }
            return m.invoke(null, values);
        }
        if (last != null) throw new IllegalStateException("cannot pass the arguments to " + name + ": " + last);
        throw new IllegalStateException("Solution has no public static " + name + " with "
                + args.size() + " parameters");
    }

    /** `v` (plain data: Long, Double, Boolean, String, null, List) as a value of type `t`. */
    static Object convert(Object v, Type t) {
        if (t instanceof ParameterizedType p) {
            Type raw = p.getRawType();
            if (v instanceof List<?> list && raw instanceof Class<?> rc && rc.isAssignableFrom(ArrayList.class)) {
                Type elem = p.getActualTypeArguments()[0];
                List<Object> out = new ArrayList<>(list.size());
                for (Object x : list) out.add(convert(x, elem));
                return out;
            }
            return convert(v, raw);
        }
        if (!(t instanceof Class<?> c)) return v; // a type variable or wildcard: as it came
        if (v == null) {
            if (c.isPrimitive()) throw new IllegalArgumentException("null for a " + c);
            return null;
        }
        if (v instanceof Long n) {
            if (c == int.class || c == Integer.class) return Math.toIntExact(n);
            if (c == long.class || c == Long.class) return n;
            if (c == double.class || c == Double.class) return n.doubleValue();
            if (c == short.class || c == Short.class) return (short) Math.toIntExact(n);
            if (c == Object.class || c == Number.class) return n;
        }
        if (v instanceof String s && (c == char.class || c == Character.class) && s.length() == 1) {
            return s.charAt(0);
        }
        if (v instanceof List<?> list && c.isArray()) {
            Object out = Array.newInstance(c.getComponentType(), list.size());
            for (int k = 0; k < list.size(); k++) Array.set(out, k, convert(list.get(k), c.getComponentType()));
            return out;
        }
        if (v instanceof List<?> list && c.isAssignableFrom(ArrayList.class)) return new ArrayList<>(list);
        if (c.isPrimitive() ? wrapper(c).isInstance(v) : c.isInstance(v)) return v;
        throw new IllegalArgumentException("a " + v.getClass().getSimpleName() + " is not a " + c.getSimpleName());
    }

    private static Class<?> wrapper(Class<?> c) {
        if (c == boolean.class) return Boolean.class;
        if (c == double.class) return Double.class;
        if (c == long.class) return Long.class;
        if (c == int.class) return Integer.class;
        return Object.class;
    }
}
