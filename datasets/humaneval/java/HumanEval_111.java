import java.util.*;

class Solution {
    public static Map<String, Long> histogram(String test) {
        Map<String, Long> counts = new HashMap<>();
        long best = 0;
        for (String w : test.split(" ", -1)) {
            long c = counts.merge(w, 1L, Long::sum);
            if (!w.isEmpty() && c > best) {
                best = c;
            }
        }
        Map<String, Long> out = new HashMap<>();
        if (best > 0) {
            for (Map.Entry<String, Long> e : counts.entrySet()) {
                if (e.getValue() == best) {
                    out.put(e.getKey(), best);
                }
            }
        }
        return out;
    }
}
