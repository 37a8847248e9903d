import java.util.*;
import java.util.stream.*;

class Solution {
    public static String caesar(String text, long shift) {
        int k = (int) (((shift % 26) + 26) % 26);
        StringBuilder out = new StringBuilder();
        for (char c : text.toCharArray()) {
            if (c >= 'a' && c <= 'z') out.append((char) ('a' + (c - 'a' + k) % 26));
            else if (c >= 'A' && c <= 'Z') out.append((char) ('A' + (c - 'A' + k) % 26));
            else out.append(c);
        }
        return out.toString();
    }
}
