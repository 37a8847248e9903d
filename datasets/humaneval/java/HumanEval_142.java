import java.util.*;

class Solution {
    public static long sumSquares(List<Long> lst) {
        long sum = 0;
        for (int i = 0; i < lst.size(); i++) {
            long x = lst.get(i);
            if (i % 3 == 0) {
                sum += x * x;
            } else if (i % 4 == 0) {
                sum += x * x * x;
            } else {
                sum += x;
            }
        }
        return sum;
    }
}
