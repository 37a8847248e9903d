import java.util.*;

class Solution {
    public static String solve(long N) {
        long sum = 0;
        for (char c : Long.toString(N).toCharArray()) {
            sum += c - '0';
        }
        return Long.toBinaryString(sum);
    }
}
