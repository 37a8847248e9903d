import java.util.*;

class Solution {
    public static boolean moveOneBall(List<Long> arr) {
        int n = arr.size();
        if (n == 0) {
            return true;
        }
        List<Long> sorted = new ArrayList<>(arr);
        Collections.sort(sorted);
        for (int shift = 0; shift < n; shift++) {
            boolean ok = true;
            for (int i = 0; i < n && ok; i++) {
                ok = arr.get((i + shift) % n).equals(sorted.get(i));
            }
            if (ok) {
                return true;
            }
        }
        return false;
    }
}
