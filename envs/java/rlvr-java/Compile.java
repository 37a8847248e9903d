package rlvr;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

/**
 * Compiles the answer inside the driver's JVM and loads it from memory. One JVM per job
 * instead of a javac JVM and then a java JVM is most of the stack's speed: a JVM start and
 * javac's cold classes cost far more than compiling a small file. The source object accepts
 * any public class name, so an answer whose public class is not `Solution` still compiles (the
 * driver then reports that `Solution` is missing); the answer's classes see the JDK only, not
 * the driver's.
 */
final class Compile {
    private Compile() {}

    /** The class `name` of the answer in `source`, or null after printing javac's errors. */
    static Class<?> load(Path source, String name) throws IOException, ClassNotFoundException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        String text = Files.readString(source, StandardCharsets.UTF_8);
        Map<String, byte[]> classes = new HashMap<>();
        StandardJavaFileManager std = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8);
        std.setLocation(StandardLocation.CLASS_PATH, List.of()); // the JDK only, not the driver
        JavaFileManager files = new ForwardingJavaFileManager<>(std) {
            @Override
            public JavaFileObject getJavaFileForOutput(
                    Location where, String cls, JavaFileObject.Kind kind, FileObject sibling) {
                return new SimpleJavaFileObject(URI.create("mem:///" + cls + ".class"), kind) {
                    @Override
                    public OutputStream openOutputStream() {
                        return new ByteArrayOutputStream() {
                            @Override
                            public void close() {
                                classes.put(cls, toByteArray());
                            }
                        };
                    }
                };
            }
        };
        JavaFileObject unit = new SimpleJavaFileObject(
                URI.create("string:///" + source.getFileName()), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreErrors) {
                return text;
            }

            @Override
            public boolean isNameCompatible(String simpleName, JavaFileObject.Kind kind) {
                return true;
            }
        };
        StringWriter errors = new StringWriter();
        List<String> options = List.of("-proc:none", "-implicit:none", "-Xlint:none");
        boolean ok = javac.getTask(errors, files, null, options, null, List.of(unit)).call();
        if (!ok) {
            System.err.print(errors);
            return null;
        }
        ClassLoader loader = new ClassLoader(ClassLoader.getPlatformClassLoader()) {
            @Override
            protected Class<?> findClass(String cls) throws ClassNotFoundException {
                byte[] code = classes.get(cls);
                if (code == null) throw new ClassNotFoundException(cls);
                return defineClass(cls, code, 0, code.length);
            }
        };
        if (!classes.containsKey(name)) {
            System.err.println("the answer compiled but defines no class " + name
                    + " (it defines " + String.join(", ", classes.keySet()) + ")");
            return null;
        }
        return Class.forName(name, false, loader);
    }
}
