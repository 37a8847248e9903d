import java.util.*;

class Solution {
    public static List<Long> sortEven(List<Long> l) {
        List<Long> evens = new ArrayList<>();
        for (int i = 0; i < l.size(); i += 2) {
            evens.add(l.get(i));
        }
        Collections.sort(evens);
        List<Long> out = new ArrayList<>(l);
        for (int i = 0; i < l.size(); i += 2) {
            out.set(i, evens.get(i / 2));
        }
        return out;
    }
}
