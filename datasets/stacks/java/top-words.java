import java.util.*;
import java.util.stream.*;

class Solution {
    public static List<String> topWords(String text, long k) {
        Map<String, Long> counts = new HashMap<>();
        for (String w : text.toLowerCase(Locale.ROOT).split("[^a-z]+")) {
            if (!w.isEmpty()) counts.merge(w, 1L, Long::sum);
        }
        return counts.keySet().stream()
                .sorted(Comparator.comparing((String w) -> -counts.get(w)).thenComparing(w -> w))
                .limit(k)
                .collect(Collectors.toList());
    }
}
