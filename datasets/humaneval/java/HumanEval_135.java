import java.util.*;

class Solution {
    public static long canArrange(List<Long> arr) {
        long ind = -1;
        for (int i = 1; i < arr.size(); i++) {
            if (arr.get(i) < arr.get(i - 1)) {
                ind = i;
            }
        }
        return ind;
    }
}
