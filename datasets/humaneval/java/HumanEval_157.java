import java.util.*;

class Solution {
    public static boolean rightAngleTriangle(long a, long b, long c) {
        return a * a == b * b + c * c || b * b == a * a + c * c || c * c == a * a + b * b;
    }
}
