import java.util.*;

class Solution {
    public static List<Long> sortArray(List<Long> array) {
        List<Long> out = new ArrayList<>(array);
        if (out.isEmpty()) {
            return out;
        }
        if ((array.get(0) + array.get(array.size() - 1)) % 2 == 0) {
            out.sort(Comparator.reverseOrder());
        } else {
            Collections.sort(out);
        }
        return out;
    }
}
