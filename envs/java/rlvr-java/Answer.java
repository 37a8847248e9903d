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
 * reply with the judge's own code: Long, Double, Boolean, String, null or a List of these.
 * An exception in the answer comes back as an AnswerException; an answer that is gone (exit,
 * halt, crash) fails every call after it.
 */
public final class Answer {
    private Answer() {}

    public static final class AnswerException extends RuntimeException {
        AnswerException(String message) {
            super(message);
        }
    }

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

    public static synchronized Object call(String method, Object... args) {
        open();
        if (dead != null) throw new AnswerException(dead);
        String line;
        try {
            List<Object> list = new ArrayList<>(List.of(args));
            out.write(("call " + method + " " + Wire.encode(list) + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            line = in.readLine();
        } catch (Exception e) {
            line = null;
        }
        if (line == null) {
            dead = "the answer process is gone";
            throw new AnswerException(dead);
        }
        if (line.startsWith("ok ")) return Wire.decode(line.substring(3));
        if (line.startsWith("raise ")) {
            Object msg = Wire.decode(line.substring(6));
            throw new AnswerException(String.valueOf(msg));
        }
        dead = "the answer process sent a malformed reply";
        throw new AnswerException(dead);
    }
}
