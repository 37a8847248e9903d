import java.util.*;

class Solution {
    public static boolean isHappy(String s) {
        if (s.length() < 3) {
            return false;
        }
        for (int i = 0; i + 2 < s.length(); i++) {
            char a = s.charAt(i), b = s.charAt(i + 1), c = s.charAt(i + 2);
            if (a == b || b == c || a == c) {
                return false;
            }
        }
        return true;
    }
}
