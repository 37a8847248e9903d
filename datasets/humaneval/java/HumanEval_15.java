import java.util.*;

class Solution {
    public static String stringSequence(long n) {
        StringBuilder out = new StringBuilder("0");
        for (long i = 1; i <= n; i++) {
            out.append(' ').append(i);
        }
        return out.toString();
    }
}
