import java.util.*;

class Solution {
    public static boolean primeLength(String string) {
        int n = string.codePointCount(0, string.length());
        if (n < 2) {
            return false;
        }
        for (int d = 2; d * d <= n; d++) {
            if (n % d == 0) {
                return false;
            }
        }
        return true;
    }
}
