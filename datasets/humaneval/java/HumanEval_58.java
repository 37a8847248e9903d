import java.util.*;

class Solution {
    public static List<Long> common(List<Long> l1, List<Long> l2) {
        Set<Long> out = new TreeSet<>(l1);
        out.retainAll(new HashSet<>(l2));
        return new ArrayList<>(out);
    }
}
