import java.util.*;

class Solution {
    public static List<Long> generateIntegers(long a, long b) {
        long lo = Math.max(2, Math.min(a, b));
        long hi = Math.min(8, Math.max(a, b));
        List<Long> out = new ArrayList<>();
        for (long i = lo; i <= hi; i++) {
            if (i % 2 == 0) {
                out.add(i);
            }
        }
        return out;
    }
}
