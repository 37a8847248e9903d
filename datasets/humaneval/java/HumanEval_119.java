import java.util.*;

class Solution {
    private static boolean balanced(String s) {
        int depth = 0;
        for (char c : s.toCharArray()) {
            depth += c == '(' ? 1 : -1;
            if (depth < 0) {
                return false;
            }
        }
        return depth == 0;
    }

    public static String matchParens(List<String> lst) {
        String a = lst.get(0), b = lst.get(1);
        return balanced(a + b) || balanced(b + a) ? "Yes" : "No";
    }
}
