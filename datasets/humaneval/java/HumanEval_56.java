import java.util.*;

class Solution {
    public static boolean correctBracketing(String brackets) {
        int depth = 0;
        for (char c : brackets.toCharArray()) {
            depth += c == '<' ? 1 : -1;
            if (depth < 0) {
                return false;
            }
        }
        return depth == 0;
    }
}
