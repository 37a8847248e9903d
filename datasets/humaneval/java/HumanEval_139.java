import java.util.*;

class Solution {
    public static long specialFactorial(long n) {
        long fact = 1, special = 1;
        for (long i = 1; i <= n; i++) {
            fact *= i;
            special *= fact;
        }
        return special;
    }
}
