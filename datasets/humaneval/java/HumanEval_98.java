import java.util.*;

class Solution {
    public static long countUpper(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i += 2) {
            if ("AEIOU".indexOf(s.charAt(i)) >= 0) {
                n++;
            }
        }
        return n;
    }
}
