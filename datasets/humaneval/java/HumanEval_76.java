import java.util.*;

class Solution {
    public static boolean isSimplePower(long x, long n) {
        if (n == 1) {
            return x == 1;
        }
        long power = 1;
        while (power < x) {
            power *= n;
        }
        return power == x;
    }
}
