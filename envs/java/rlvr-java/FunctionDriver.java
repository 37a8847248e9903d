package rlvr;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The java stack's function-task driver (rlvr.functions.judge has the protocol):
 *
 *     java ... rlvr.FunctionDriver rlvr-cases.json Solution.java
 *
 * The case file (written by envs/java/translator.py) holds the method's name, the parameter and
 * return types and each case's arguments, never an expected value. The driver prints
 * `@@RLVR-READY`, compiles the answer in this JVM (Compile), then calls the public static
 * method of `Solution` once per case and prints one `@@RLVR-CASE` line each, on a stream it
 * opened before any answer code ran (so `System.setOut` in the answer does not divert it). An
 * exception fails its case only; `System.exit` in the answer leaves the later cases without a
 * result, and a hook says so on stderr. The driver itself ends with `halt`, so threads or
 * shutdown hooks the answer left behind cannot hold the job open.
 */
public final class FunctionDriver {
    private static final PrintStream OUT =
            new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.US_ASCII);
    private static final int MAX_ERROR = 1000;
    private static volatile int current = -1;
    private static volatile boolean done;

    private FunctionDriver() {}

    public static void main(String[] argv) throws Exception {
        OUT.print("@@RLVR-READY\n");
        OUT.flush();
        Map<?, ?> spec = (Map<?, ?>) Json.parse(Files.readString(Path.of(argv[0])));
        Class<?> solution = Compile.load(Path.of(argv[1]), "Solution");
        if (solution == null) {
            System.err.flush();
            Runtime.getRuntime().halt(1);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (!done) {
                System.err.println("rlvr: the JVM was ended (System.exit?) during case " + current
                        + "; it and the later cases have no result");
            }
        }));
        String name = (String) spec.get("name");
        List<?> params = (List<?>) spec.get("params");
        List<?> cases = (List<?>) spec.get("cases");
        Method method = find(solution, name, params.size());
        for (int k = 0; k < cases.size(); k++) {
            current = k;
            emit(k, call(method, name, params, (List<?>) cases.get(k), spec.get("returns")));
        }
        done = true;
        OUT.flush();
        System.err.flush();
        Runtime.getRuntime().halt(0);
    }

    /** The static method `name` of arity `n` (public or not), or null. */
    static Method find(Class<?> c, String name, int n) {
        for (Method m : c.getDeclaredMethods()) {
            if (m.getName().equals(name) && Modifier.isStatic(m.getModifiers())
                    && m.getParameterCount() == n) {
                m.setAccessible(true);
                return m;
            }
        }
        return null;
    }

    /** The body of one result line: `"ok":true,"value":...` or `"ok":false,"error":...`. */
    static String call(Method m, String name, List<?> params, List<?> args, Object returns) {
        StringBuilder b = new StringBuilder();
        try {
            if (m == null) {
                throw new NoSuchMethodException("class Solution has no static method " + name
                        + " with " + params.size() + " parameters");
            }
            Class<?>[] types = m.getParameterTypes();
            Object[] values = new Object[args.size()];
            for (int k = 0; k < values.length; k++) {
                values[k] = Values.fit(Values.arg(args.get(k), params.get(k)), types[k]);
            }
            Object got = m.invoke(null, values);
            b.append("\"ok\":true,\"value\":");
            Values.encode(b, got, returns, 0);
            return b.toString();
        } catch (InvocationTargetException e) {
            return failure(e.getCause());
        } catch (Throwable t) {
            return failure(t);
        }
    }

    private static String failure(Throwable t) {
        String text;
        try {
            text = String.valueOf(t); // the answer's own exception may override toString
        } catch (Throwable u) {
            text = t.getClass().getName();
        }
        if (text.length() > MAX_ERROR) text = text.substring(0, MAX_ERROR) + "...";
        StringBuilder b = new StringBuilder("\"ok\":false,\"error\":");
        Json.quote(b, text);
        return b.toString();
    }

    private static void emit(int k, String body) {
        OUT.print("\n@@RLVR-CASE {\"case\":" + k + "," + body + "}\n");
        OUT.flush();
    }
}
