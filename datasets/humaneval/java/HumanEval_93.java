import java.util.*;

class Solution {
    public static String encode(String message) {
        StringBuilder out = new StringBuilder();
        for (char c : message.toCharArray()) {
            if (Character.isUpperCase(c)) {
                c = Character.toLowerCase(c);
            } else {
                c = Character.toUpperCase(c);
            }
            if ("aeiouAEIOU".indexOf(c) >= 0) {
                c = (char) (c + 2);
            }
            out.append(c);
        }
        return out.toString();
    }
}
