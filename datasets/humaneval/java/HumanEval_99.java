import java.util.*;

class Solution {
    public static long closestInteger(String value) {
        if (value.isEmpty()) {
            return 0;
        }
        double num = Double.parseDouble(value);
        double frac = Math.abs(num - (long) num);
        if (frac == 0.5) {
            return num > 0 ? (long) Math.ceil(num) : (long) Math.floor(num);
        }
        return Math.round(num);
    }
}
