import java.util.*;

class Solution {
    public static boolean anyInt(double x, double y, double z) {
        for (double v : new double[] {x, y, z}) {
            if (v != Math.rint(v)) {
                return false;
            }
        }
        return x + y == z || x + z == y || y + z == x;
    }
}
