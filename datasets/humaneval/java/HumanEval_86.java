import java.util.*;

class Solution {
    public static String antiShuffle(String s) {
        String[] words = s.split(" ", -1);
        for (int i = 0; i < words.length; i++) {
            int[] cps = words[i].codePoints().sorted().toArray();
            words[i] = new String(cps, 0, cps.length);
        }
        return String.join(" ", words);
    }
}
