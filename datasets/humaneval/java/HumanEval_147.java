import java.util.*;

class Solution {
    private static long choose3(long m) {
        return m * (m - 1) * (m - 2) / 6;
    }

    public static long getMaxTriples(long n) {
        long[] byResidue = new long[3];
        for (long i = 1; i <= n; i++) {
            byResidue[(int) ((i * i - i + 1) % 3)]++;
        }
        return choose3(byResidue[0]) + choose3(byResidue[1]) + choose3(byResidue[2])
                + byResidue[0] * byResidue[1] * byResidue[2];
    }
}
