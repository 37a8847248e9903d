import java.util.*;

class Solution {
    private static long strength(String e) {
        long s = 0;
        for (int i = 0; i < e.length(); i++) {
            char c = e.charAt(i);
            if (Character.isLetter(c)) {
                if (Character.isUpperCase(c)) {
                    s++;
                } else if (Character.isLowerCase(c)) {
                    s--;
                }
            }
        }
        return s;
    }

    public static String StrongestExtension(String className, List<String> extensions) {
        String best = extensions.get(0);
        long bestStrength = strength(best);
        for (String e : extensions) {
            long s = strength(e);
            if (s > bestStrength) {
                best = e;
                bestStrength = s;
            }
        }
        return className + "." + best;
    }
}
