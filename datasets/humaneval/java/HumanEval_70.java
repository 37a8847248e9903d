import java.util.*;

class Solution {
    public static List<Long> strangeSortList(List<Long> lst) {
        List<Long> s = new ArrayList<>(lst);
        Collections.sort(s);
        List<Long> out = new ArrayList<>();
        int lo = 0, hi = s.size() - 1;
        boolean low = true;
        while (lo <= hi) {
            out.add(low ? s.get(lo++) : s.get(hi--));
            low = !low;
        }
        return out;
    }
}
