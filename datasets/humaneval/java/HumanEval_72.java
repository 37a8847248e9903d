import java.util.*;

class Solution {
    public static boolean willItFly(List<Long> q, long w) {
        long sum = 0;
        for (long x : q) {
            sum += x;
        }
        if (sum > w) {
            return false;
        }
        for (int i = 0, j = q.size() - 1; i < j; i++, j--) {
            if (!q.get(i).equals(q.get(j))) {
                return false;
            }
        }
        return true;
    }
}
