import java.util.*;

class Solution {
    public static List<Long> uniqueDigits(List<Long> x) {
        List<Long> out = new ArrayList<>();
        for (long n : x) {
            boolean allOdd = true;
            for (char c : Long.toString(n).toCharArray()) {
                if ((c - '0') % 2 == 0) {
                    allOdd = false;
                }
            }
            if (allOdd) {
                out.add(n);
            }
        }
        Collections.sort(out);
        return out;
    }
}
