import java.util.*;

class Solution {
    public static List<String> wordsString(String s) {
        List<String> out = new ArrayList<>();
        for (String w : s.replace(',', ' ').split("\\s+")) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
    }
}
