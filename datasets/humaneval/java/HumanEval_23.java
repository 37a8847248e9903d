import java.util.*;

class Solution {
    public static long strlen(String string) {
        return string.codePointCount(0, string.length());
    }
}
