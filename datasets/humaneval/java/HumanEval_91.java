import java.util.*;

class Solution {
    public static long isBored(String S) {
        long n = 0;
        for (String sentence : S.split("[.?!]\\s*")) {
            if (sentence.startsWith("I ")) {
                n++;
            }
        }
        return n;
    }
}
