package rlvr;

import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.ToolProvider;

/**
 * The answer's side, in a JVM of its own under the answer's uid, holding nothing but the answer:
 *
 *     java ... rlvr.AnswerServer ANSWER_DIR/Solution.java        (RLVR_RPC_FDS = read,write)
 *
 * Compiles Solution.java, then serves `call NAME [args]` lines with the public static method of
 * that name and arity. Everything in this JVM is the answer's to change, and that is fine: the
 * judge only decodes plain data from it, and the report is written by the judge's JVM.
 */
public final class AnswerServer {
    public static void main(String[] argv) throws Exception {
        String[] fds = System.getenv("RLVR_RPC_FDS").split(",");
        var in = new BufferedReader(new InputStreamReader(
                new FileInputStream(Wire.fd(Integer.parseInt(fds[0]))), StandardCharsets.UTF_8));
        OutputStream out = new FileOutputStream(Wire.fd(Integer.parseInt(fds[1])));
        System.setOut(new PrintStream(new FileOutputStream(java.io.FileDescriptor.err), true));
        Class<?> solution = null;
        String broken = null;
        try {
            Path src = Path.of(argv[0]);
            Path classes = Files.createTempDirectory(Path.of(System.getenv("TMPDIR")), "classes");
            var err = new java.io.ByteArrayOutputStream();
            int rc = ToolProvider.getSystemJavaCompiler()
                    .run(null, err, err, "-d", classes.toString(), src.toString());
            if (rc != 0) broken = "the answer does not compile: " + err;
            else solution = new URLClassLoader(new URL[] {classes.toUri().toURL()})
                    .loadClass("Solution");
        } catch (Throwable t) {
            broken = "the answer could not be loaded: " + t;
        }
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String reply;
            try {
                if (broken != null) throw new IllegalStateException(broken);
                String[] parts = line.split(" ", 3);
                reply = "ok " + Wire.encode(invoke(solution, parts[1], (List<?>) Wire.decode(parts[2])));
            } catch (InvocationTargetException e) {
                reply = "raise " + Wire.encode(String.valueOf(e.getCause()));
            } catch (Throwable t) {
                reply = "raise " + Wire.encode(String.valueOf(t));
            }
            out.write((reply + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
    }

    static Object invoke(Class<?> c, String name, List<?> args) throws Exception {
        for (Method m : c.getMethods()) {
            if (m.getName().equals(name) && Modifier.isStatic(m.getModifiers())
                    && m.getParameterCount() == args.size()) {
                Class<?>[] types = m.getParameterTypes();
                Object[] values = new Object[args.size()];
                for (int k = 0; k < values.length; k++) values[k] = convert(args.get(k), types[k]);
                return m.invoke(null, values);
            }
        }
        throw new NoSuchMethodException("no public static " + name + " with " + args.size() + " arguments");
    }

    static Object convert(Object v, Class<?> t) {
        if (v instanceof Long n) {
            if (t == int.class || t == Integer.class) return Math.toIntExact(n);
            if (t == long.class || t == Long.class) return n;
            if (t == double.class || t == Double.class) return n.doubleValue();
        }
        if (v instanceof List<?> list) {
            if (t == int[].class) return list.stream().mapToInt(x -> Math.toIntExact((Long) x)).toArray();
            if (t == long[].class) return list.stream().mapToLong(x -> (Long) x).toArray();
            if (t == String[].class) return list.toArray(new String[0]);
            if (t.isAssignableFrom(ArrayList.class)) return new ArrayList<>(list);
        }
        return v;
    }
}
