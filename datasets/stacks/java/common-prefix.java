import java.util.*;
import java.util.stream.*;

class Solution {
    public static String longestCommonPrefix(List<String> words) {
        if (words.isEmpty()) return "";
        String prefix = words.get(0);
        for (String w : words.subList(1, words.size())) {
            int i = 0;
            while (i < prefix.length() && i < w.length() && prefix.charAt(i) == w.charAt(i)) i++;
            prefix = prefix.substring(0, i);
        }
        return prefix;
    }
}
