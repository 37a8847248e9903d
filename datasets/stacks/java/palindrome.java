import java.util.*;
import java.util.stream.*;

class Solution {
    public static boolean isPalindrome(String s) {
        StringBuilder keep = new StringBuilder();
        for (char c : s.toCharArray()) {
            if (c >= 'A' && c <= 'Z') c += 'a' - 'A';
            if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) keep.append(c);
        }
        return keep.toString().equals(keep.reverse().toString());
    }
}
