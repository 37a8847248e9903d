import java.util.*;

class Solution {
    public static List<Long> f(long n) {
        List<Long> out = new ArrayList<>();
        long factorial = 1;
        for (long i = 1; i <= n; i++) {
            factorial *= i;
            out.add(i % 2 == 0 ? factorial : i * (i + 1) / 2);
        }
        return out;
    }
}
