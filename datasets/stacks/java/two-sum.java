import java.util.*;
import java.util.stream.*;

class Solution {
    public static List<Long> twoSum(List<Long> nums, long target) {
        Map<Long, Long> seen = new HashMap<>();
        for (int j = 0; j < nums.size(); j++) {
            long v = nums.get(j);
            Long i = seen.get(target - v);
            if (i != null) return List.of(i, (long) j);
            seen.putIfAbsent(v, (long) j);
        }
        return null;
    }
}
