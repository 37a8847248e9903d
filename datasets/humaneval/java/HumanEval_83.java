import java.util.*;

class Solution {
    public static long startsOneEnds(long n) {
        if (n == 1) {
            return 1;
        }
        long out = 18;
        for (long i = 2; i < n; i++) {
            out *= 10;
        }
        return out;
    }
}
