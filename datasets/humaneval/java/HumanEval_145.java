import java.util.*;

class Solution {
    private static long digitSum(long n) {
        String s = Long.toString(Math.abs(n));
        long sum = 0;
        for (int i = 0; i < s.length(); i++) {
            long d = s.charAt(i) - '0';
            sum += (i == 0 && n < 0) ? -d : d;
        }
        return sum;
    }

    public static List<Long> orderByPoints(List<Long> nums) {
        List<Long> out = new ArrayList<>(nums);
        out.sort(Comparator.comparingLong(Solution::digitSum));
        return out;
    }
}
