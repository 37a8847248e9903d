import java.util.*;

class Solution {
    public static List<String> filterByPrefix(List<String> strings, String prefix) {
        List<String> out = new ArrayList<>();
        for (String s : strings) {
            if (s.startsWith(prefix)) {
                out.add(s);
            }
        }
        return out;
    }
}
