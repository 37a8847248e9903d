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

    public static long skjkasdkd(List<Long> lst) {
        long best = 0;
        for (long x : lst) {
            if (x > best && isPrime(x)) {
                best = x;
            }
        }
        long sum = 0;
        for (char c : Long.toString(best).toCharArray()) {
            sum += c - '0';
        }
        return sum;
    }
}
