import java.util.*;

class Solution {
    public static long xOrY(long n, long x, long y) {
        if (n == 1) {
            return y;
        }
        for (long d = 2; d * d <= n; d++) {
            if (n % d == 0) {
                return y;
            }
        }
        return x;
    }
}
