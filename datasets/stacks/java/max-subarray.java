import java.util.*;
import java.util.stream.*;

class Solution {
    public static long maxSubarraySum(List<Long> nums) {
        long best = nums.get(0), cur = nums.get(0);
        for (long v : nums.subList(1, nums.size())) {
            cur = Math.max(cur + v, v);
            best = Math.max(best, cur);
        }
        return best;
    }
}
