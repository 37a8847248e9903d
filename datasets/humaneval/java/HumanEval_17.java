import java.util.*;

class Solution {
    public static List<Long> parseMusic(String musicString) {
        Map<String, Long> beats = Map.of("o", 4L, "o|", 2L, ".|", 1L);
        List<Long> out = new ArrayList<>();
        for (String note : musicString.split(" ")) {
            if (beats.containsKey(note)) {
                out.add(beats.get(note));
            }
        }
        return out;
    }
}
