import java.util.*;

class Solution {
    public static String intersection(List<Long> interval1, List<Long> interval2) {
        long lo = Math.max(interval1.get(0), interval2.get(0));
        long hi = Math.min(interval1.get(1), interval2.get(1));
        long n = hi - lo;
        if (n < 2) {
            return "NO";
        }
        for (long d = 2; d * d <= n; d++) {
            if (n % d == 0) {
                return "NO";
            }
        }
        return "YES";
    }
}
