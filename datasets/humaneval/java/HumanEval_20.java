import java.util.*;

class Solution {
    public static List<Double> findClosestElements(List<Double> numbers) {
        double best = Double.POSITIVE_INFINITY;
        double lo = 0, hi = 0;
        for (int i = 0; i < numbers.size(); i++) {
            for (int j = i + 1; j < numbers.size(); j++) {
                double a = numbers.get(i), b = numbers.get(j);
                double d = Math.abs(a - b);
                if (d < best) {
                    best = d;
                    lo = Math.min(a, b);
                    hi = Math.max(a, b);
                }
            }
        }
        return Arrays.asList(lo, hi);
    }
}
