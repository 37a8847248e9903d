import java.util.*;

class Solution {
    public static String removeVowels(String text) {
        StringBuilder out = new StringBuilder();
        for (char c : text.toCharArray()) {
            if ("aeiouAEIOU".indexOf(c) < 0) {
                out.append(c);
            }
        }
        return out.toString();
    }
}
