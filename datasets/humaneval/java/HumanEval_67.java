import java.util.*;

class Solution {
    public static long fruitDistribution(String s, long n) {
        for (String w : s.split(" ")) {
            if (w.matches("\\d+")) {
                n -= Long.parseLong(w);
            }
        }
        return n;
    }
}
