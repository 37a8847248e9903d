import java.util.*;

class Solution {
    public static List<String> sortedListSum(List<String> lst) {
        List<String> out = new ArrayList<>();
        for (String s : lst) {
            if (s.length() % 2 == 0) {
                out.add(s);
            }
        }
        out.sort(Comparator.comparingInt(String::length).thenComparing(Comparator.naturalOrder()));
        return out;
    }
}
