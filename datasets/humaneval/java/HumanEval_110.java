import java.util.*;

class Solution {
    public static String exchange(List<Long> lst1, List<Long> lst2) {
        long odd = 0, even = 0;
        for (long x : lst1) {
            if (x % 2 != 0) {
                odd++;
            }
        }
        for (long x : lst2) {
            if (x % 2 == 0) {
                even++;
            }
        }
        return even >= odd ? "YES" : "NO";
    }
}
