import java.util.*;

class Solution {
    public static List<Long> getPositive(List<Long> l) {
        List<Long> out = new ArrayList<>();
        for (long x : l) {
            if (x > 0) {
                out.add(x);
            }
        }
        return out;
    }
}
