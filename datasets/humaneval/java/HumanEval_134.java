import java.util.*;

class Solution {
    public static boolean checkIfLastCharIsALetter(String txt) {
        String[] parts = txt.split(" ", -1);
        String last = parts[parts.length - 1];
        if (last.codePointCount(0, last.length()) != 1) {
            return false;
        }
        int c = Character.toLowerCase(last.codePointAt(0));
        return c >= 'a' && c <= 'z';
    }
}
