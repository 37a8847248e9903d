import java.util.*;
import java.util.stream.*;

class Solution {
    public static List<List<Long>> mergeIntervals(List<List<Long>> intervals) {
        List<List<Long>> sorted = new ArrayList<>(intervals);
        sorted.sort(Comparator.comparing(iv -> iv.get(0)));
        List<List<Long>> out = new ArrayList<>();
        for (List<Long> iv : sorted) {
            if (!out.isEmpty() && iv.get(0) <= out.get(out.size() - 1).get(1)) {
                List<Long> last = out.get(out.size() - 1);
                last.set(1, Math.max(last.get(1), iv.get(1)));
            } else {
                out.add(new ArrayList<>(iv));
            }
        }
        return out;
    }
}
