import java.util.*;

class Solution {
    public static long multiply(long a, long b) {
        return Math.abs(a % 10) * Math.abs(b % 10);
    }
}
