import java.util.*;

class Solution {
    public static double truncateNumber(double number) {
        return number % 1.0;
    }
}
