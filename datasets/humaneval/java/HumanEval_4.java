import java.util.*;

class Solution {
    public static double meanAbsoluteDeviation(List<Double> numbers) {
        double sum = 0.0;
        for (double x : numbers) {
            sum += x;
        }
        double mean = sum / numbers.size();
        double dev = 0.0;
        for (double x : numbers) {
            dev += Math.abs(x - mean);
        }
        return dev / numbers.size();
    }
}
