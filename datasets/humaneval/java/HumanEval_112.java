import java.util.*;

class Solution {
    public static List<Object> reverseDelete(String s, String c) {
        StringBuilder kept = new StringBuilder();
        for (char ch : s.toCharArray()) {
            if (c.indexOf(ch) < 0) {
                kept.append(ch);
            }
        }
        String k = kept.toString();
        boolean palindrome = k.equals(kept.reverse().toString());
        return Arrays.asList(k, palindrome);
    }
}
