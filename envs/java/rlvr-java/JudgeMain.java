package rlvr;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.reporting.legacy.xml.LegacyXmlReportGeneratingListener;

/**
 * The judge of the java-tests mode, as the judge's uid with the test files; it never loads the
 * answer (the tests' `Answer.call` sends plain data to the answer's JVM):
 *
 *     java ... -cp junit-platform-console-standalone.jar:rlvr-java.jar rlvr.JudgeMain REPORT TEST.java...
 *
 * One JVM compiles the tests (javac's API, against this class path) and runs them with the
 * JUnit Platform launcher, writing the legacy JUnit XML report (what the console launcher and
 * Gradle write: test names `Class.method()`) to REPORT, in the judge's scratch. A javac JVM
 * and a console-launcher JVM cost a second or more each; this one shares its warm-up between
 * both steps and maps its classes from the image's class-data archive. Exit status: 0 when
 * every test passed, 1 when one did not, 3 when the tests do not compile.
 */
public final class JudgeMain {
    private JudgeMain() {}

    public static void main(String[] argv) throws Exception {
        Path report = Path.of(argv[0]);
        Path work = Files.createTempDirectory("rlvr-judge");
        Path classes = Files.createDirectories(work.resolve("classes"));
        List<String> sources = List.of(argv).subList(1, argv.length);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter errors = new StringWriter();
        boolean ok;
        try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
            List<String> options = List.of("-proc:none", "-Xlint:none", "-d", classes.toString(),
                    "-cp", System.getProperty("java.class.path"));
            ok = javac.getTask(errors, files, null, options, null, files.getJavaFileObjectsFromStrings(sources)).call();
        }
        if (!ok) {
            System.out.print(errors);
            System.exit(3);
        }
        ClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, JudgeMain.class.getClassLoader());
        Thread.currentThread().setContextClassLoader(loader);
        List<DiscoverySelector> selectors = new ArrayList<>();
        for (String source : sources) {
            String name = Path.of(source).getFileName().toString().replaceFirst("\\.java$", "");
            selectors.add(selectClass(loader.loadClass(name)));
        }
        Path reports = Files.createDirectories(work.resolve("reports"));
        var xml = new LegacyXmlReportGeneratingListener(reports, new PrintWriter(System.err, true));
        var summary = new SummaryGeneratingListener();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectors).build(), xml, summary);
        StringBuilder all = new StringBuilder();
        try (Stream<Path> written = Files.list(reports)) {
            for (Path p : written.sorted().toList()) all.append(Files.readString(p, StandardCharsets.UTF_8));
        }
        Files.writeString(report, all, StandardCharsets.UTF_8);
        var s = summary.getSummary();
        boolean passed = s.getTestsFoundCount() > 0 && s.getTotalFailureCount() == 0
                && s.getTestsSkippedCount() == 0 && s.getTestsAbortedCount() == 0;
        System.exit(passed ? 0 : 1);
    }
}
