import java.util.*;

class Solution {
    public static long sumSquares(List<Double> lst) {
        long sum = 0;
        for (double x : lst) {
            long c = (long) Math.ceil(x);
            sum += c * c;
        }
        return sum;
    }
}
