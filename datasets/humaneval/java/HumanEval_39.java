import java.util.*;

class Solution {
    private static boolean isPrime(long p) {
        if (p < 2) {
            return false;
        }
        for (long d = 2; d * d <= p; d++) {
            if (p % d == 0) {
                return false;
            }
        }
        return true;
    }

    public static long primeFib(long n) {
        long a = 0, b = 1;
        while (true) {
            long next = a + b;
            a = b;
            b = next;
            if (isPrime(b)) {
                n--;
                if (n == 0) {
                    return b;
                }
            }
        }
    }
}
