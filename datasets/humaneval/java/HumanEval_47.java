import java.util.*;

class Solution {
    public static double median(List<Long> l) {
        List<Long> s = new ArrayList<>(l);
        Collections.sort(s);
        int n = s.size();
        if (n % 2 == 1) {
            return s.get(n / 2);
        }
        return (s.get(n / 2 - 1) + s.get(n / 2)) / 2.0;
    }
}
