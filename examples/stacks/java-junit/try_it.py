"""Grade a correct, a wrong and a forging answer to each java-junit task (run once by hand).

    rlvr sandbox build java-junit --env-path examples/stacks      # a few minutes the first time
    python examples/stacks/java-junit/try_it.py

Expected: correct 1.0, wrong 0.0, forge 0.0 on both tasks. The forger does what wins in a JUnit
stack whose tests run in the answer's JVM (look up the test classes by reflection, write a
passing XML report, halt); here its JVM holds no test class and the report it writes is not the
one rlvr reads, and its halt fails the judge's calls.
"""

from pathlib import Path

from rlvr.registry import env_from_manifest

env = env_from_manifest(Path(__file__).resolve().parent)
FORGE = """import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

public class Solution {
    // What wins in an in-process JUnit stack: find the tests, write a passing report, halt.
    static {
        StringBuilder xml = new StringBuilder("<testsuite>");
        for (String c : new String[] {"PublicTest", "HiddenTest"}) {
            try {
                for (var m : Class.forName(c).getDeclaredMethods())
                    xml.append("<testcase classname='" + c + "' name='" + m.getName() + "()'/>");
            } catch (Throwable t) {
                System.err.println("no " + c + " here: " + t);
            }
        }
        xml.append("</testsuite>");
        for (String p : new String[] {System.getenv("REPORT"), "/tmp/report.xml"}) {
            try {
                Files.writeString(Path.of(p), xml);
            } catch (Throwable t) {
                System.err.println("cannot write " + p + ": " + t);
            }
        }
        Runtime.getRuntime().halt(0);
    }

    public static List<String> fizzBuzz(int n) { return List.of(); }
    public static long sumOfSquares(int[] xs) { return 0; }
}
"""
WRONG = {  # fizzbuzz forgets Buzz; the sum overflows an int
    "java-fizzbuzz": """import java.util.ArrayList;
import java.util.List;

public class Solution {
    public static List<String> fizzBuzz(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            out.add(i % 3 == 0 ? "Fizz" : String.valueOf(i));
        }
        return out;
    }
}
""",
    "java-sum-of-squares": """public class Solution {
    public static long sumOfSquares(int[] xs) {
        int s = 0;
        for (int x : xs) {
            s += x * x;
        }
        return s;
    }
}
""",
}
for task in env.tasks():
    answers = {"correct": task.reference or "", "wrong": WRONG[task.id], "forge": FORGE}
    verdicts = env.grade(task, [f"```java\n{a}```" for a in answers.values()])
    for name, v in zip(answers, verdicts, strict=True):
        tests = [(t.name, t.outcome) for t in v.tests]
        print(task.id, name, v.status, v.reward, v.cause, "|", v.reason[:120], "|", tests)
