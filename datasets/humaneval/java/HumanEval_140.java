import java.util.*;

class Solution {
    public static String fixSpaces(String text) {
        StringBuilder out = new StringBuilder();
        int run = 0;
        for (char c : text.toCharArray()) {
            if (c == ' ') {
                run++;
                continue;
            }
            if (run > 2) {
                out.append('-');
            } else {
                out.append("_".repeat(run));
            }
            out.append(c);
            run = 0;
        }
        if (run > 2) {
            out.append('-');
        } else if (run > 0) {
            out.append('_');
        }
        return out.toString();
    }
}
