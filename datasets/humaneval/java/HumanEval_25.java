import java.util.*;

class Solution {
    public static List<Long> factorize(long n) {
        List<Long> out = new ArrayList<>();
        for (long d = 2; d * d <= n; d++) {
            while (n % d == 0) {
                out.add(d);
                n /= d;
            }
        }
        if (n > 1) {
            out.add(n);
        }
        return out;
    }
}
