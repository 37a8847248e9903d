import java.util.*;

class Solution {
    public static List<Long> intersperse(List<Long> numbers, long delimeter) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < numbers.size(); i++) {
            if (i > 0) {
                out.add(delimeter);
            }
            out.add(numbers.get(i));
        }
        return out;
    }
}
