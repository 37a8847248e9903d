import java.util.*;

class Solution {
    public static String stringXor(String a, String b) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < a.length(); i++) {
            out.append(a.charAt(i) == b.charAt(i) ? '0' : '1');
        }
        return out.toString();
    }
}
