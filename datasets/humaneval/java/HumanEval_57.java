import java.util.*;

class Solution {
    public static boolean monotonic(List<Long> l) {
        boolean up = true, down = true;
        for (int i = 1; i < l.size(); i++) {
            int cmp = l.get(i).compareTo(l.get(i - 1));
            if (cmp < 0) {
                up = false;
            }
            if (cmp > 0) {
                down = false;
            }
        }
        return up || down;
    }
}
