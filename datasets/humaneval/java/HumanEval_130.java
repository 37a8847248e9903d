import java.util.*;

class Solution {
    public static List<Double> tri(long n) {
        List<Double> out = new ArrayList<>();
        out.add(1.0);
        if (n == 0) {
            return out;
        }
        out.add(3.0);
        for (int i = 2; i <= n; i++) {
            if (i % 2 == 0) {
                out.add(i / 2.0 + 1);
            } else {
                out.add(out.get(i - 1) + out.get(i - 2) + (i + 3) / 2.0);
            }
        }
        return out;
    }
}
