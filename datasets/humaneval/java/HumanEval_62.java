import java.util.*;

class Solution {
    public static List<Long> derivative(List<Long> xs) {
        List<Long> out = new ArrayList<>();
        for (int i = 1; i < xs.size(); i++) {
            out.add(xs.get(i) * i);
        }
        return out;
    }
}
