import java.util.*;
import java.util.stream.*;

class Solution {
    private static final Map<Character, Long> VALUES = Map.of(
            'I', 1L, 'V', 5L, 'X', 10L, 'L', 50L, 'C', 100L, 'D', 500L, 'M', 1000L);

    public static long romanToInt(String s) {
        long total = 0;
        for (int i = 0; i < s.length(); i++) {
            long v = VALUES.getOrDefault(s.charAt(i), 0L);
            if (i + 1 < s.length() && VALUES.getOrDefault(s.charAt(i + 1), 0L) > v) total -= v;
            else total += v;
        }
        return total;
    }
}
