import java.util.*;
import java.util.stream.*;

class Solution {
    public static List<Long> primesUpTo(long n) {
        List<Long> out = new ArrayList<>();
        if (n < 2) return out;
        boolean[] composite = new boolean[(int) n + 1];
        for (int i = 2; i <= n; i++) {
            if (composite[i]) continue;
            out.add((long) i);
            for (long j = (long) i * i; j <= n; j += i) composite[(int) j] = true;
        }
        return out;
    }
}
