import java.util.*;

class Solution {
    public static String changeBase(long x, long base) {
        if (x == 0) {
            return "0";
        }
        StringBuilder out = new StringBuilder();
        while (x > 0) {
            out.append(x % base);
            x /= base;
        }
        return out.reverse().toString();
    }
}
