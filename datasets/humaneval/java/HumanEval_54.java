import java.util.*;

class Solution {
    private static Set<Integer> chars(String s) {
        Set<Integer> out = new HashSet<>();
        s.codePoints().forEach(out::add);
        return out;
    }

    public static boolean sameChars(String s0, String s1) {
        return chars(s0).equals(chars(s1));
    }
}
