import java.util.*;

class Solution {
    public static long maxElement(List<Long> l) {
        long best = l.get(0);
        for (long x : l) {
            if (x > best) {
                best = x;
            }
        }
        return best;
    }
}
