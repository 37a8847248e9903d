import java.util.*;

class Solution {
    public static long modp(long n, long p) {
        long ret = 1;
        for (long i = 0; i < n; i++) {
            ret = (2 * ret) % p;
        }
        return ret;
    }
}
