import java.util.*;
import java.util.stream.*;

class Solution {
    public static List<String> fizzBuzz(long n) {
        List<String> out = new ArrayList<>();
        for (long i = 1; i <= n; i++) {
            if (i % 15 == 0) out.add("FizzBuzz");
            else if (i % 3 == 0) out.add("Fizz");
            else if (i % 5 == 0) out.add("Buzz");
            else out.add(Long.toString(i));
        }
        return out;
    }
}
