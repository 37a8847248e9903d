import java.util.*;

class Solution {
    public static List<Long> eat(long number, long need, long remaining) {
        if (need <= remaining) {
            return new ArrayList<>(Arrays.asList(number + need, remaining - need));
        }
        return new ArrayList<>(Arrays.asList(number + remaining, 0L));
    }
}
