import java.util.*;

class Solution {
    private static boolean isPrime(long n) {
        if (n < 2) {
            return false;
        }
        for (long d = 2; d * d <= n; d++) {
            if (n % d == 0) {
                return false;
            }
        }
        return true;
    }

    public static boolean isMultiplyPrime(long a) {
        for (long i = 2; i <= 100; i++) {
            if (!isPrime(i)) {
                continue;
            }
            for (long j = 2; j <= 100; j++) {
                if (!isPrime(j)) {
                    continue;
                }
                for (long k = 2; k <= 100; k++) {
                    if (isPrime(k) && i * j * k == a) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
