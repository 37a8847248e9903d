import java.util.*;

class Solution {
    public static long countDistinctCharacters(String string) {
        Set<Integer> seen = new HashSet<>();
        string.toLowerCase().codePoints().forEach(seen::add);
        return seen.size();
    }
}
