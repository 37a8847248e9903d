import java.util.*;

class Solution {
    public static List<String> separateParenGroups(String parenString) {
        List<String> groups = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int depth = 0;
        for (char c : parenString.toCharArray()) {
            if (c == '(') {
                depth++;
                current.append(c);
            } else if (c == ')') {
                depth--;
                current.append(c);
                if (depth == 0) {
                    groups.add(current.toString());
                    current.setLength(0);
                }
            }
        }
        return groups;
    }
}
