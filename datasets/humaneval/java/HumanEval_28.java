import java.util.*;

class Solution {
    public static String concatenate(List<String> strings) {
        return String.join("", strings);
    }
}
