import java.util.*;

class Solution {
    public static boolean validDate(String date) {
        String[] parts = date.trim().split("-", -1);
        if (parts.length != 3) {
            return false;
        }
        long[] nums = new long[3];
        for (int i = 0; i < 3; i++) {
            String p = parts[i].trim();
            if (!p.matches("[+-]?[0-9]+")) {
                return false;
            }
            nums[i] = Long.parseLong(p.startsWith("+") ? p.substring(1) : p);
        }
        long month = nums[0], day = nums[1];
        if (month < 1 || month > 12 || day < 1) {
            return false;
        }
        if (month == 4 || month == 6 || month == 9 || month == 11) {
            return day <= 30;
        }
        if (month == 2) {
            return day <= 29;
        }
        return day <= 31;
    }
}
