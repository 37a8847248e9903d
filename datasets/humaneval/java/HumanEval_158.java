import java.util.*;

class Solution {
    public static String findMax(List<String> words) {
        String best = null;
        long bestCount = -1;
        for (String w : words) {
            long count = w.codePoints().distinct().count();
            if (count > bestCount || (count == bestCount && w.compareTo(best) < 0)) {
                best = w;
                bestCount = count;
            }
        }
        return best;
    }
}
