import java.util.*;

class Solution {
    public static long fibfib(long n) {
        long a = 0, b = 0, c = 1;
        if (n == 0 || n == 1) {
            return 0;
        }
        for (long i = 3; i <= n; i++) {
            long next = a + b + c;
            a = b;
            b = c;
            c = next;
        }
        return c;
    }
}
