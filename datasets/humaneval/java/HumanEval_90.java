import java.util.*;

class Solution {
    public static Long nextSmallest(List<Long> lst) {
        TreeSet<Long> u = new TreeSet<>(lst);
        if (u.size() < 2) {
            return null;
        }
        return u.higher(u.first());
    }
}
