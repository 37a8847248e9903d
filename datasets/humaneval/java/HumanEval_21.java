import java.util.*;

class Solution {
    public static List<Double> rescaleToUnit(List<Double> numbers) {
        double lo = Collections.min(numbers), hi = Collections.max(numbers);
        List<Double> out = new ArrayList<>();
        for (double x : numbers) {
            out.add((x - lo) / (hi - lo));
        }
        return out;
    }
}
