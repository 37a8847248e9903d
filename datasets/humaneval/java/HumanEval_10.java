import java.util.*;

class Solution {
    private static boolean isPalindrome(String s, int from) {
        for (int i = from, j = s.length() - 1; i < j; i++, j--) {
            if (s.charAt(i) != s.charAt(j)) {
                return false;
            }
        }
        return true;
    }

    public static String makePalindrome(String string) {
        if (string.isEmpty()) {
            return "";
        }
        int start = 0;
        while (!isPalindrome(string, start)) {
            start++;
        }
        return string + new StringBuilder(string.substring(0, start)).reverse();
    }
}
