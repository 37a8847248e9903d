import java.util.*;

class Solution {
    public static List<Long> sortArray(List<Long> arr) {
        List<Long> out = new ArrayList<>(arr);
        Collections.sort(out);
        out.sort(Comparator.comparingInt(x -> Long.bitCount(Math.abs(x))));
        return out;
    }
}
