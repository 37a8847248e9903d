import java.util.*;

class Solution {
    public static List<String> bf(String planet1, String planet2) {
        List<String> names = Arrays.asList("Mercury", "Venus", "Earth", "Mars",
                "Jupiter", "Saturn", "Uranus", "Neptune");
        int i = names.indexOf(planet1), j = names.indexOf(planet2);
        if (i < 0 || j < 0 || i == j) {
            return new ArrayList<>();
        }
        return new ArrayList<>(names.subList(Math.min(i, j) + 1, Math.max(i, j)));
    }
}
