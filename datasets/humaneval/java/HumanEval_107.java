import java.util.*;

class Solution {
    public static List<Long> evenOddPalindrome(long n) {
        long even = 0, odd = 0;
        for (long i = 1; i <= n; i++) {
            String s = Long.toString(i);
            if (s.equals(new StringBuilder(s).reverse().toString())) {
                if (i % 2 == 0) {
                    even++;
                } else {
                    odd++;
                }
            }
        }
        return Arrays.asList(even, odd);
    }
}
