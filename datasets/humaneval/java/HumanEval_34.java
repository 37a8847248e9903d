import java.util.*;

class Solution {
    public static List<Long> unique(List<Long> l) {
        return new ArrayList<>(new TreeSet<>(l));
    }
}
