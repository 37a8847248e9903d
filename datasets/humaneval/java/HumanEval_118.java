import java.util.*;

class Solution {
    private static boolean vowel(char c) {
        return "aeiouAEIOU".indexOf(c) >= 0;
    }

    public static String getClosestVowel(String word) {
        for (int i = word.length() - 2; i >= 1; i--) {
            if (vowel(word.charAt(i)) && !vowel(word.charAt(i - 1)) && !vowel(word.charAt(i + 1))) {
                return String.valueOf(word.charAt(i));
            }
        }
        return "";
    }
}
