import java.util.*;

class Solution {
    public static List<Long> sortThird(List<Long> l) {
        List<Long> thirds = new ArrayList<>();
        for (int i = 0; i < l.size(); i += 3) {
            thirds.add(l.get(i));
        }
        Collections.sort(thirds);
        List<Long> out = new ArrayList<>(l);
        for (int i = 0; i < l.size(); i += 3) {
            out.set(i, thirds.get(i / 3));
        }
        return out;
    }
}
