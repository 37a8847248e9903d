import java.util.*;
import java.util.stream.*;

class Solution {
    public static long countIslands(List<String> grid) {
        int rows = grid.size();
        if (rows == 0) return 0;
        int cols = grid.get(0).length();
        boolean[] seen = new boolean[rows * cols];
        long count = 0;
        int[][] steps = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                if (grid.get(r).charAt(c) != '1' || seen[r * cols + c]) continue;
                count++;
                seen[r * cols + c] = true;
                Deque<int[]> stack = new ArrayDeque<>();
                stack.push(new int[] {r, c});
                while (!stack.isEmpty()) {
                    int[] p = stack.pop();
                    for (int[] d : steps) {
                        int y = p[0] + d[0], x = p[1] + d[1];
                        if (y < 0 || x < 0 || y >= rows || x >= cols) continue;
                        if (grid.get(y).charAt(x) == '1' && !seen[y * cols + x]) {
                            seen[y * cols + x] = true;
                            stack.push(new int[] {y, x});
                        }
                    }
                }
            }
        }
        return count;
    }
}
