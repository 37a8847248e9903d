import java.util.*;

class Solution {
    public static List<String> selectWords(String s, long n) {
        List<String> out = new ArrayList<>();
        for (String w : s.split("\\s+")) {
            if (w.isEmpty()) {
                continue;
            }
            long consonants = 0;
            for (char c : w.toLowerCase().toCharArray()) {
                if ("aeiou".indexOf(c) < 0) {
                    consonants++;
                }
            }
            if (consonants == n) {
                out.add(w);
            }
        }
        return out;
    }
}
