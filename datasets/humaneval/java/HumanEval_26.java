import java.util.*;

class Solution {
    public static List<Long> removeDuplicates(List<Long> numbers) {
        Map<Long, Integer> counts = new HashMap<>();
        for (Long n : numbers) {
            counts.merge(n, 1, Integer::sum);
        }
        List<Long> out = new ArrayList<>();
        for (Long n : numbers) {
            if (counts.get(n) == 1) {
                out.add(n);
            }
        }
        return out;
    }
}
