import java.util.*;

class Solution {
    public static List<Long> sumProduct(List<Long> numbers) {
        long sum = 0, product = 1;
        for (long n : numbers) {
            sum += n;
            product *= n;
        }
        return Arrays.asList(sum, product);
    }
}
