import java.util.*;

class Solution {
    public static long digits(long n) {
        long product = 1;
        boolean anyOdd = false;
        for (char c : Long.toString(n).toCharArray()) {
            int d = c - '0';
            if (d % 2 == 1) {
                product *= d;
                anyOdd = true;
            }
        }
        return anyOdd ? product : 0;
    }
}
