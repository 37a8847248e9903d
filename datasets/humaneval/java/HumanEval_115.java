import java.util.*;

class Solution {
    public static long maxFill(List<List<Long>> grid, long capacity) {
        long total = 0;
        for (List<Long> row : grid) {
            long water = 0;
            for (long x : row) {
                water += x;
            }
            total += (water + capacity - 1) / capacity;
        }
        return total;
    }
}
