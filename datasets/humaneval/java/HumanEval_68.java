import java.util.*;

class Solution {
    public static List<Long> pluck(List<Long> arr) {
        long best = 0;
        int idx = -1;
        for (int i = 0; i < arr.size(); i++) {
            long x = arr.get(i);
            if (x % 2 == 0 && (idx < 0 || x < best)) {
                best = x;
                idx = i;
            }
        }
        if (idx < 0) {
            return new ArrayList<>();
        }
        return new ArrayList<>(Arrays.asList(best, (long) idx));
    }
}
