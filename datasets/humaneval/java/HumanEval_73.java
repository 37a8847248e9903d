import java.util.*;

class Solution {
    public static long smallestChange(List<Long> arr) {
        long n = 0;
        for (int i = 0, j = arr.size() - 1; i < j; i++, j--) {
            if (!arr.get(i).equals(arr.get(j))) {
                n++;
            }
        }
        return n;
    }
}
