import java.util.*;

class Solution {
    public static long countNums(List<Long> arr) {
        long count = 0;
        for (long n : arr) {
            String s = Long.toString(Math.abs(n));
            long sum = 0;
            for (int i = 0; i < s.length(); i++) {
                long d = s.charAt(i) - '0';
                sum += (i == 0 && n < 0) ? -d : d;
            }
            if (sum > 0) {
                count++;
            }
        }
        return count;
    }
}
