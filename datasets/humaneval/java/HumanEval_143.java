import java.util.*;

class Solution {
    private static boolean isPrime(int n) {
        if (n < 2) {
            return false;
        }
        for (int d = 2; d * d <= n; d++) {
            if (n % d == 0) {
                return false;
            }
        }
        return true;
    }

    public static String wordsInSentence(String sentence) {
        List<String> out = new ArrayList<>();
        for (String w : sentence.split("\\s+")) {
            if (!w.isEmpty() && isPrime(w.codePointCount(0, w.length()))) {
                out.add(w);
            }
        }
        return String.join(" ", out);
    }
}
