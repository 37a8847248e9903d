import java.util.*;

class Solution {
    public static String encrypt(String s) {
        StringBuilder out = new StringBuilder();
        for (char c : s.toCharArray()) {
            if (c >= 'a' && c <= 'z') {
                out.append((char) ('a' + (c - 'a' + 4) % 26));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
