import java.util.*;

class Solution {
    public static long sumToN(long n) {
        return n * (n + 1) / 2;
    }
}
