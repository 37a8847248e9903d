import java.util.*;

class Solution {
    public static String solve(String s) {
        boolean letters = false;
        StringBuilder out = new StringBuilder();
        for (char c : s.toCharArray()) {
            if (Character.isLetter(c)) {
                letters = true;
                c = Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c);
            }
            out.append(c);
        }
        return letters ? out.toString() : out.reverse().toString();
    }
}
