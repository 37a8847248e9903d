import java.util.*;

class Solution {
    public static String decimalToBinary(long decimal) {
        return "db" + Long.toBinaryString(decimal) + "db";
    }
}
