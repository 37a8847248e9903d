import java.util.*;

class Solution {
    public static long search(List<Long> lst) {
        Map<Long, Long> counts = new HashMap<>();
        for (Long x : lst) {
            counts.merge(x, 1L, Long::sum);
        }
        long ans = -1;
        for (Map.Entry<Long, Long> e : counts.entrySet()) {
            long x = e.getKey();
            if (x > 0 && e.getValue() >= x && x > ans) {
                ans = x;
            }
        }
        return ans;
    }
}
