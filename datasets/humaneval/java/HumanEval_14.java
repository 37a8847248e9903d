import java.util.*;

class Solution {
    public static List<String> allPrefixes(String string) {
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= string.length(); i++) {
            out.add(string.substring(0, i));
        }
        return out;
    }
}
