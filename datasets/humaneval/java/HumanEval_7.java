import java.util.*;

class Solution {
    public static List<String> filterBySubstring(List<String> strings, String substring) {
        List<String> out = new ArrayList<>();
        for (String s : strings) {
            if (s.contains(substring)) {
                out.add(s);
            }
        }
        return out;
    }
}
