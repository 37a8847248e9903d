import java.util.*;

class Solution {
    private static long pow(long base, long exp) {
        long r = 1;
        for (long i = 0; i < exp; i++) {
            r *= base;
        }
        return r;
    }

    public static long doAlgebra(List<String> operator, List<Long> operand) {
        // '**' binds tightest and groups to the right
        Deque<Long> vals = new ArrayDeque<>();
        Deque<String> ops = new ArrayDeque<>();
        vals.addFirst(operand.get(operand.size() - 1));
        for (int i = operator.size() - 1; i >= 0; i--) {
            if (operator.get(i).equals("**")) {
                vals.addFirst(pow(operand.get(i), vals.removeFirst()));
            } else {
                vals.addFirst(operand.get(i));
                ops.addFirst(operator.get(i));
            }
        }
        // then '*' and '//' left to right, then '+' and '-'
        List<Long> terms = new ArrayList<>();
        List<String> signs = new ArrayList<>();
        Iterator<Long> it = vals.iterator();
        terms.add(it.next());
        for (String op : ops) {
            long v = it.next();
            int last = terms.size() - 1;
            switch (op) {
                case "*":
                    terms.set(last, terms.get(last) * v);
                    break;
                case "//":
                    terms.set(last, Math.floorDiv(terms.get(last), v));
                    break;
                default:
                    terms.add(v);
                    signs.add(op);
            }
        }
        long result = terms.get(0);
        for (int i = 0; i < signs.size(); i++) {
            result += signs.get(i).equals("+") ? terms.get(i + 1) : -terms.get(i + 1);
        }
        return result;
    }
}
