import java.util.*;

class Solution {
    private static boolean oddDigit(char c) {
        return "13579".indexOf(c) >= 0;
    }

    public static long specialFilter(List<Long> nums) {
        long count = 0;
        for (long n : nums) {
            String s = Long.toString(n);
            if (n > 10 && oddDigit(s.charAt(0)) && oddDigit(s.charAt(s.length() - 1))) {
                count++;
            }
        }
        return count;
    }
}
