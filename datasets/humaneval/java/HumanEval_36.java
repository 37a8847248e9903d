import java.util.*;

class Solution {
    public static long fizzBuzz(long n) {
        long count = 0;
        for (long i = 0; i < n; i++) {
            if (i % 11 == 0 || i % 13 == 0) {
                for (char c : Long.toString(i).toCharArray()) {
                    if (c == '7') {
                        count++;
                    }
                }
            }
        }
        return count;
    }
}
