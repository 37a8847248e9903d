import java.util.*;

class Solution {
    public static List<Long> compare(List<Long> game, List<Long> guess) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < game.size(); i++) {
            out.add(Math.abs(game.get(i) - guess.get(i)));
        }
        return out;
    }
}
