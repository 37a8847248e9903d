import java.util.*;

class Solution {
    public static List<Long> largestSmallestIntegers(List<Long> lst) {
        Long neg = null, pos = null;
        for (Long x : lst) {
            if (x < 0 && (neg == null || x > neg)) {
                neg = x;
            }
            if (x > 0 && (pos == null || x < pos)) {
                pos = x;
            }
        }
        return Arrays.asList(neg, pos);
    }
}
