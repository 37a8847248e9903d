import java.util.*;

class Solution {
    public static long howManyTimes(String string, String substring) {
        long count = 0;
        for (int i = 0; i + substring.length() <= string.length(); i++) {
            if (string.startsWith(substring, i)) {
                count++;
            }
        }
        return count;
    }
}
