import java.util.*;
import java.util.stream.*;

class Solution {
    public static String runLengthEncode(String s) {
        int[] cps = s.codePoints().toArray();
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < cps.length; ) {
            int j = i;
            while (j < cps.length && cps[j] == cps[i]) j++;
            out.appendCodePoint(cps[i]).append(j - i);
            i = j;
        }
        return out.toString();
    }
}
