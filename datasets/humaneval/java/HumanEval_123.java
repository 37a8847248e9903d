import java.util.*;

class Solution {
    public static List<Long> getOddCollatz(long n) {
        List<Long> out = new ArrayList<>();
        if (n % 2 == 1) {
            out.add(n);
        }
        while (n > 1) {
            n = n % 2 == 0 ? n / 2 : 3 * n + 1;
            if (n % 2 == 1) {
                out.add(n);
            }
        }
        Collections.sort(out);
        return out;
    }
}
