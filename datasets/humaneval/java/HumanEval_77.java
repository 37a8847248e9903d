import java.util.*;

class Solution {
    public static boolean iscube(long a) {
        a = Math.abs(a);
        long r = Math.round(Math.cbrt((double) a));
        return r * r * r == a;
    }
}
