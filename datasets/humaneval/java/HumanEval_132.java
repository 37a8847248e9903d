import java.util.*;

class Solution {
    public static boolean isNested(String string) {
        List<Integer> opens = new ArrayList<>(), closes = new ArrayList<>();
        for (int i = 0; i < string.length(); i++) {
            if (string.charAt(i) == '[') {
                opens.add(i);
            } else {
                closes.add(i);
            }
        }
        int count = 0, j = closes.size() - 1;
        for (int i : opens) {
            if (j >= 0 && i < closes.get(j)) {
                count++;
                j--;
            }
        }
        return count >= 2;
    }
}
