import java.util.*;

class Solution {
    public static List<Long> countUpTo(long n) {
        List<Long> out = new ArrayList<>();
        for (long i = 2; i < n; i++) {
            boolean prime = true;
            for (long d = 2; d * d <= i; d++) {
                if (i % d == 0) {
                    prime = false;
                    break;
                }
            }
            if (prime) {
                out.add(i);
            }
        }
        return out;
    }
}
