import java.util.*;

class Solution {
    public static List<String> byLength(List<Long> arr) {
        String[] names = {"One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"};
        List<Long> keep = new ArrayList<>();
        for (long x : arr) {
            if (x >= 1 && x <= 9) {
                keep.add(x);
            }
        }
        keep.sort(Comparator.reverseOrder());
        List<String> out = new ArrayList<>();
        for (long x : keep) {
            out.add(names[(int) x - 1]);
        }
        return out;
    }
}
