import java.util.*;

class Solution {
    public static boolean simplify(String x, String n) {
        String[] a = x.split("/");
        String[] b = n.split("/");
        long numerator = Long.parseLong(a[0].trim()) * Long.parseLong(b[0].trim());
        long denominator = Long.parseLong(a[1].trim()) * Long.parseLong(b[1].trim());
        return numerator % denominator == 0;
    }
}
