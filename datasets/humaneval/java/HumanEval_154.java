import java.util.*;

class Solution {
    public static boolean cycpatternCheck(String a, String b) {
        if (b.isEmpty()) {
            return true;
        }
        for (int i = 0; i < b.length(); i++) {
            if (a.contains(b.substring(i) + b.substring(0, i))) {
                return true;
            }
        }
        return false;
    }
}
