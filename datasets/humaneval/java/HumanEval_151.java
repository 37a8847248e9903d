import java.util.*;

class Solution {
    public static long doubleTheDifference(List<Double> lst) {
        long sum = 0;
        for (double x : lst) {
            if (x > 0 && x == Math.rint(x) && (long) x % 2 == 1) {
                sum += (long) x * (long) x;
            }
        }
        return sum;
    }
}
