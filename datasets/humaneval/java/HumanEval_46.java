import java.util.*;

class Solution {
    public static long fib4(long n) {
        long[] f = {0, 0, 2, 0};
        if (n < 4) {
            return f[(int) n];
        }
        for (long i = 4; i <= n; i++) {
            long next = f[0] + f[1] + f[2] + f[3];
            f[0] = f[1];
            f[1] = f[2];
            f[2] = f[3];
            f[3] = next;
        }
        return f[3];
    }
}
