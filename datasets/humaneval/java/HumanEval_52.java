import java.util.*;

class Solution {
    public static boolean belowThreshold(List<Long> l, long t) {
        for (long x : l) {
            if (x >= t) {
                return false;
            }
        }
        return true;
    }
}
