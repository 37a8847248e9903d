import java.util.*;

class Solution {
    private static long total(List<String> l) {
        long n = 0;
        for (String s : l) {
            n += s.codePointCount(0, s.length());
        }
        return n;
    }

    public static List<String> totalMatch(List<String> lst1, List<String> lst2) {
        return total(lst1) <= total(lst2) ? lst1 : lst2;
    }
}
