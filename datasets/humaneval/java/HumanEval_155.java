import java.util.*;

class Solution {
    public static List<Long> evenOddCount(long num) {
        long even = 0, odd = 0;
        for (char c : Long.toString(Math.abs(num)).toCharArray()) {
            if ((c - '0') % 2 == 0) {
                even++;
            } else {
                odd++;
            }
        }
        return Arrays.asList(even, odd);
    }
}
