import java.util.*;

class Solution {
    public static List<Long> maximum(List<Long> arr, long k) {
        List<Long> s = new ArrayList<>(arr);
        Collections.sort(s);
        return new ArrayList<>(s.subList(s.size() - (int) k, s.size()));
    }
}
