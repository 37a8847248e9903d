import java.util.*;

class Solution {
    public static List<List<Long>> getRow(List<List<Long>> lst, long x) {
        List<List<Long>> out = new ArrayList<>();
        for (int i = 0; i < lst.size(); i++) {
            List<Long> row = lst.get(i);
            for (int j = row.size() - 1; j >= 0; j--) {
                if (row.get(j) == x) {
                    out.add(Arrays.asList((long) i, (long) j));
                }
            }
        }
        return out;
    }
}
