import java.util.*;

class Solution {
    public static List<Long> parseNestedParens(String parenString) {
        List<Long> out = new ArrayList<>();
        for (String group : parenString.trim().split("\\s+")) {
            if (group.isEmpty()) {
                continue;
            }
            long depth = 0, best = 0;
            for (char c : group.toCharArray()) {
                if (c == '(') {
                    depth++;
                    best = Math.max(best, depth);
                } else if (c == ')') {
                    depth--;
                }
            }
            out.add(best);
        }
        return out;
    }
}
