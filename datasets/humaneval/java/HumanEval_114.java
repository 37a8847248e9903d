import java.util.*;

class Solution {
    public static long minSubArraySum(List<Long> nums) {
        long best = nums.get(0), cur = 0;
        for (long x : nums) {
            cur = Math.min(x, cur + x);
            best = Math.min(best, cur);
        }
        return best;
    }
}
