import java.util.*;

class Solution {
    public static String longest(List<String> strings) {
        if (strings.isEmpty()) {
            return null;
        }
        String best = strings.get(0);
        for (String s : strings) {
            if (s.codePointCount(0, s.length()) > best.codePointCount(0, best.length())) {
                best = s;
            }
        }
        return best;
    }
}
