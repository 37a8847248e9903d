import java.util.*;

class Solution {
    public static double triangleArea(long a, long b, long c) {
        if (a + b <= c || a + c <= b || b + c <= a) {
            return -1;
        }
        double p = (a + b + c) / 2.0;
        double area = Math.sqrt(p * (p - a) * (p - b) * (p - c));
        return Math.round(area * 100) / 100.0;
    }
}
