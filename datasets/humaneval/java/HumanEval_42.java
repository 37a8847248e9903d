import java.util.*;

class Solution {
    public static List<Long> incrList(List<Long> l) {
        List<Long> out = new ArrayList<>();
        for (long x : l) {
            out.add(x + 1);
        }
        return out;
    }
}
