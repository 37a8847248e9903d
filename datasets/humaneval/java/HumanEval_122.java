import java.util.*;

class Solution {
    public static long addElements(List<Long> arr, long k) {
        long sum = 0;
        for (long x : arr.subList(0, (int) k)) {
            if (Long.toString(x).length() <= 2) {
                sum += x;
            }
        }
        return sum;
    }
}
