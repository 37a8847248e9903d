import java.util.*;

class Solution {
    public static String sortNumbers(String numbers) {
        List<String> names = Arrays.asList("zero", "one", "two", "three", "four",
                "five", "six", "seven", "eight", "nine");
        List<String> words = new ArrayList<>();
        for (String w : numbers.split(" ")) {
            if (!w.isEmpty()) {
                words.add(w);
            }
        }
        words.sort(Comparator.comparingInt(names::indexOf));
        return String.join(" ", words);
    }
}
