import java.util.*;

class Solution {
    public static Long prodSigns(List<Long> arr) {
        if (arr.isEmpty()) {
            return null;
        }
        long sign = 1, sum = 0;
        for (long x : arr) {
            if (x == 0) {
                sign = 0;
            } else if (x < 0) {
                sign = -sign;
            }
            sum += Math.abs(x);
        }
        return sign * sum;
    }
}
