import java.util.*;

class Solution {
    public static List<Long> makeAPile(long n) {
        List<Long> out = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            out.add(n + 2 * i);
        }
        return out;
    }
}
