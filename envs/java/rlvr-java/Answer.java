package rlvr;

import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The judge's side: what the tests call instead of the answer's class. `Answer.call("f", args)`
 * sends the call as plain data to the answer's JVM (RLVR_RPC_FDS = read,write) and decodes the
 * reply with the judge's own code: Long, Double, Boolean, String, null or a List of these
 * (arrays and lists both come back as List). Arrays of objects go as `List.of(...)`: a
 * `String[]` or `int[][]` given directly would spread over the varargs.
 *
 * An exception thrown by the answer's method comes back as {@link Raised} (its class name and
 * message), which `assertThrows(Answer.Raised.class, ...)` can expect. A call that got no
 * answer at all (the answer's JVM ended, it does not compile, no such method) throws
 * {@link Unanswered}, an AssertionError, so no test that expects an exception passes then.
 */
public final class Answer {
    private Answer() {}

    /** The answer's method threw: {@link #type()} is the exception's class name. */
    public static final class Raised extends RuntimeException {
        private final String type;

        Raised(String type, String message) {
            super(type + (message == null ? "" : ": " + message));
            this.type = type;
        }

        public String type() {
            return type;
        }
    }

    /** The call got no answer: the answer's JVM is gone or could not serve it. */
    public static final class Unanswered extends AssertionError {
        Unanswered(String message) {
            super(message);
        }
    }

    /** The longest reply read (chars): a longer one would only fill the judge's heap. */
    private static final int MAX_REPLY = 16 << 20;
    private static final String TOO_LONG = new String("reply too long");
    private static BufferedReader in;
    private static OutputStream out;
    private static String dead;

    private static synchronized void open() {
        if (in != null || dead != null) return;
        try {
            String[] fds = System.getenv("RLVR_RPC_FDS").split(",");
            in = new BufferedReader(new InputStreamReader(
                    new FileInputStream(Wire.fd(Integer.parseInt(fds[0]))), StandardCharsets.UTF_8));
            out = new FileOutputStream(Wire.fd(Integer.parseInt(fds[1])));
        } catch (Exception e) {
            dead = "no answer process to call (" + e + ")";
        }
    }

    /** One reply line, at most MAX_REPLY chars (TOO_LONG past that; null at the end). */
    private static String readReply() throws java.io.IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) return line.length() == 0 ? null : line.toString();
            if (line.length() >= MAX_REPLY) return TOO_LONG;
            line.append((char) c);
        }
        return line.toString();
    }

    public static synchronized Object call(String method, Object... args) {
        open();
        if (dead != null) throw new Unanswered(dead);
        String line;
        try {
            List<Object> list = new ArrayList<>(List.of(args));
            out.write(("call " + method + " " + Wire.encode(list) + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            line = readReply();
        } catch (Exception e) {
            line = null;
        }
        if (line == TOO_LONG) {
            dead = "the answer's JVM sent a reply over " + (MAX_REPLY >> 20) + " MiB to "
                    + method + "(...)";
            throw new Unanswered(dead);
        }
        if (line == null) {
            dead = "the answer ended its JVM (System.exit, Runtime.halt or a crash) during "
                    + method + "(...)";
            throw new Unanswered(dead);
        }
        try {
            if (line.startsWith("ok ")) return Wire.decode(line.substring(3));
            if (line.startsWith("raise ")) {
                List<?> what = (List<?>) Wire.decode(line.substring(6));
                throw new Raised(String.valueOf(what.get(0)), (String) what.get(1));
            }
            if (line.startsWith("fail ")) throw new Unanswered((String) Wire.decode(line.substring(5)));
        } catch (RuntimeException e) {
            if (e instanceof Raised) throw e;
        }
        dead = "the answer's JVM sent a malformed reply to " + method + "(...)";
        throw new Unanswered(dead);
    }
}
