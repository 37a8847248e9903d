import java.util.*;

class Solution {
    public static String intToMiniRoman(long number) {
        long[] values = {1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1};
        String[] symbols = {"m", "cm", "d", "cd", "c", "xc", "l", "xl", "x", "ix", "v", "iv", "i"};
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            while (number >= values[i]) {
                out.append(symbols[i]);
                number -= values[i];
            }
        }
        return out.toString();
    }
}
