import java.util.*;

class Solution {
    public static long carRaceCollision(long n) {
        return n * n;
    }
}
