import java.util.*;
import java.util.stream.*;

// The class-data-sharing archive's warm-up answer (see ../Dockerfile): typical answer code
// (collections, streams, lambdas, records, switch, strings, exceptions) so that javac and the
// JDK load at build time the classes a real answer needs.
class Solution {
    record Pair(String word, long count) {}

    public static Map<String, List<Long>> warm(List<String> words, Map<String, Double> weights,
            Long unused, long k, double x, boolean flag, List<List<Long>> grid) {
        Map<String, Long> counts = new HashMap<>();
        for (String w : words) counts.merge(w.toLowerCase(Locale.ROOT).strip(), 1L, Long::sum);
        List<Pair> pairs = counts.entrySet().stream()
                .map(e -> new Pair(e.getKey(), e.getValue()))
                .sorted(Comparator.comparingLong(Pair::count).reversed().thenComparing(Pair::word))
                .limit(k)
                .collect(Collectors.toList());
        Map<String, List<Long>> out = new TreeMap<>();
        StringBuilder b = new StringBuilder();
        for (Pair p : pairs) {
            b.append(p.word()).append(String.format("%d", p.count())).append(' ');
            List<Long> row = new ArrayList<>(LongStream.rangeClosed(1, p.count()).boxed().toList());
            Collections.reverse(row);
            row.add(Math.round(x * weights.getOrDefault(p.word(), 1.0)));
            out.put(p.word(), row);
        }
        int[] arr = grid.stream().flatMap(List::stream).mapToInt(Long::intValue).toArray();
        Arrays.sort(arr);
        Deque<Integer> stack = new ArrayDeque<>(IntStream.of(arr).boxed().toList());
        Set<Character> seen = new HashSet<>();
        for (char c : b.toString().toCharArray()) if (Character.isLetter(c)) seen.add(c);
        String joined = seen.stream().map(String::valueOf).collect(Collectors.joining(","));
        switch (joined.length() % 3) {
            case 0 -> stack.push(joined.length());
            case 1 -> stack.addLast(Integer.parseInt("7"));
            default -> stack.clear();
        }
        if (flag && stack.isEmpty()) throw new IllegalArgumentException("empty " + Arrays.toString(arr));
        return out;
    }
}
