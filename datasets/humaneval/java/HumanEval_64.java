import java.util.*;

class Solution {
    public static long vowelsCount(String s) {
        long n = 0;
        for (char c : s.toCharArray()) {
            if ("aeiouAEIOU".indexOf(c) >= 0) {
                n++;
            }
        }
        if (s.endsWith("y") || s.endsWith("Y")) {
            n++;
        }
        return n;
    }
}
