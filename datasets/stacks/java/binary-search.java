import java.util.*;
import java.util.stream.*;

class Solution {
    public static long binarySearch(List<Long> sorted, long target) {
        int lo = 0, hi = sorted.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted.get(mid) < target) lo = mid + 1;
            else hi = mid;
        }
        return lo < sorted.size() && sorted.get(lo) == target ? lo : -1;
    }
}
