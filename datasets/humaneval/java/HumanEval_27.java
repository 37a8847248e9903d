import java.util.*;

class Solution {
    public static String flipCase(String string) {
        StringBuilder out = new StringBuilder();
        string.codePoints().forEach(c -> {
            if (Character.isUpperCase(c)) {
                out.appendCodePoint(Character.toLowerCase(c));
            } else {
                out.appendCodePoint(Character.toUpperCase(c));
            }
        });
        return out.toString();
    }
}
