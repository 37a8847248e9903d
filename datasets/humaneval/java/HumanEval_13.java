import java.util.*;

class Solution {
    public static long greatestCommonDivisor(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return Math.abs(a);
    }
}
