import java.util.*;
import java.util.stream.*;

class Solution {
    public static List<List<Long>> rotate(List<List<Long>> matrix) {
        List<List<Long>> out = new ArrayList<>();
        if (matrix.isEmpty()) return out;
        int rows = matrix.size(), cols = matrix.get(0).size();
        for (int c = 0; c < cols; c++) {
            List<Long> row = new ArrayList<>();
            for (int r = rows - 1; r >= 0; r--) row.add(matrix.get(r).get(c));
            out.add(row);
        }
        return out;
    }
}
