import java.util.*;

class Solution {
    public static boolean isSorted(List<Long> lst) {
        Map<Long, Integer> counts = new HashMap<>();
        for (Long x : lst) {
            if (counts.merge(x, 1, Integer::sum) > 2) {
                return false;
            }
        }
        for (int i = 1; i < lst.size(); i++) {
            if (lst.get(i - 1) > lst.get(i)) {
                return false;
            }
        }
        return true;
    }
}
