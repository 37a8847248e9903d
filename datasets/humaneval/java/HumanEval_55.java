import java.util.*;

class Solution {
    public static long fib(long n) {
        long a = 0, b = 1;
        for (long i = 0; i < n; i++) {
            long next = a + b;
            a = b;
            b = next;
        }
        return a;
    }
}
