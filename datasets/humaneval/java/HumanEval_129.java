import java.util.*;

class Solution {
    public static List<Long> minPath(List<List<Long>> grid, long k) {
        int n = grid.size();
        long best = (long) n * n + 1;
        int[][] steps = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (grid.get(i).get(j) != 1) {
                    continue;
                }
                for (int[] s : steps) {
                    int a = i + s[0], b = j + s[1];
                    if (a >= 0 && a < n && b >= 0 && b < n) {
                        best = Math.min(best, grid.get(a).get(b));
                    }
                }
            }
        }
        List<Long> out = new ArrayList<>();
        for (long i = 0; i < k; i++) {
            out.add(i % 2 == 0 ? 1L : best);
        }
        return out;
    }
}
