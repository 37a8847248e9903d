import java.util.*;

class Solution {
    public static long largestPrimeFactor(long n) {
        long largest = 1;
        for (long d = 2; d * d <= n; d++) {
            while (n % d == 0) {
                largest = d;
                n /= d;
            }
        }
        if (n > 1 && n > largest) {
            largest = n;
        }
        return largest;
    }
}
