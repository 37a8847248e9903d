import java.util.*;

class Solution {
    public static List<String> numericalLetterGrade(List<Double> grades) {
        double[] limits = {3.7, 3.3, 3.0, 2.7, 2.3, 2.0, 1.7, 1.3, 1.0, 0.7, 0.0};
        String[] letters = {"A", "A-", "B+", "B", "B-", "C+", "C", "C-", "D+", "D", "D-"};
        List<String> out = new ArrayList<>();
        for (double g : grades) {
            if (g == 4.0) {
                out.add("A+");
                continue;
            }
            String letter = "E";
            for (int i = 0; i < limits.length; i++) {
                if (g > limits[i]) {
                    letter = letters[i];
                    break;
                }
            }
            out.add(letter);
        }
        return out;
    }
}
