import java.util.*;

class Solution {
    public static String fileNameCheck(String fileName) {
        String[] parts = fileName.split("\\.", -1);
        if (parts.length != 2) {
            return "No";
        }
        String name = parts[0], ext = parts[1];
        if (!List.of("txt", "exe", "dll").contains(ext)) {
            return "No";
        }
        if (name.isEmpty() || !Character.isLetter(name.codePointAt(0))) {
            return "No";
        }
        long digits = name.codePoints().filter(Character::isDigit).count();
        return digits > 3 ? "No" : "Yes";
    }
}
