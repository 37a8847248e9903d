import java.util.*;

class Solution {
    public static List<Long> rollingMax(List<Long> numbers) {
        List<Long> out = new ArrayList<>();
        long best = Long.MIN_VALUE;
        for (long n : numbers) {
            best = Math.max(best, n);
            out.add(best);
        }
        return out;
    }
}
