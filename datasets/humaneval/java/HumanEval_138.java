import java.util.*;

class Solution {
    public static boolean isEqualToSumEven(long n) {
        return n % 2 == 0 && n >= 8;
    }
}
