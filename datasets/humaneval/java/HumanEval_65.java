import java.util.*;

class Solution {
    public static String circularShift(long x, long shift) {
        String s = Long.toString(x);
        if (shift > s.length()) {
            return new StringBuilder(s).reverse().toString();
        }
        int cut = s.length() - (int) shift;
        return s.substring(cut) + s.substring(0, cut);
    }
}
