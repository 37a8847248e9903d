import java.util.*;

class Solution {
    public static List<String> oddCount(List<String> lst) {
        List<String> out = new ArrayList<>();
        for (String s : lst) {
            int n = 0;
            for (char c : s.toCharArray()) {
                if ((c - '0') % 2 == 1) {
                    n++;
                }
            }
            out.add("the number of odd elements " + n + "n the str" + n + "ng " + n + " of the " + n + "nput.");
        }
        return out;
    }
}
