import java.util.*;
import java.util.stream.*;

class Solution {
    public static Long collatzSteps(long n) {
        if (n < 1) return null;
        long steps = 0;
        while (n != 1) {
            n = n % 2 == 0 ? n / 2 : 3 * n + 1;
            steps++;
        }
        return steps;
    }
}
