import java.util.*;

class Solution {
    public static double triangleArea(long a, long h) {
        return (double) a * h / 2.0;
    }
}
