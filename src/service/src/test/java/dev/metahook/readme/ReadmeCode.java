package dev.metahook.readme;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.api.DecoratorController;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * The Java the README and docs/writing-controllers.md show, compiled from the pages (javax.tools) against this
 * checkout's classes, once per test run, into target/readme-code.
 */
public final class ReadmeCode {
    static final Path README = Path.of("README.md");
    static final Path WRITING = Path.of("docs/writing-controllers.md");
    private static final Path WORK = Path.of("target/readme-code");

    private static ClassLoader compiled;

    private ReadmeCode() {
    }

    /** The docs' BudgetDecorator, compiled from docs/writing-controllers.md. */
    @SuppressWarnings("unchecked")
    public static DecoratorController<Deployment, Object> budgetDecorator() {
        return instance("BudgetDecorator", DecoratorController.class);
    }

    @SuppressWarnings("unchecked")
    static <T> Class<T> type(String name) {
        try {
            return (Class<T>) Class.forName(name, true, compiled());
        } catch (ClassNotFoundException e) {
            throw new AssertionError("the snippets declare no " + name, e);
        }
    }

    static <T> T instance(String name, Class<T> as) {
        try {
            return as.cast(type(name).getConstructor().newInstance());
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(name + " cannot be made", e);
        }
    }

    private static synchronized ClassLoader compiled() {
        if (compiled == null) {
            try {
                compiled = compile();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return compiled;
    }

    private static ClassLoader compile() throws IOException, MalformedURLException {
        clear(WORK);
        Path sources = WORK.resolve("sources");
        List<Path> files = new ArrayList<>();
        for (Snippets.Snippet snippet : javaSnippets()) {
            Path file = sources.resolve(sourcePath(snippet));
            Files.createDirectories(file.getParent());
            Files.writeString(file, snippet.text());
            files.add(file);
        }
        Path classes = Files.createDirectories(WORK.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter errors = new StringWriter();
        try (StandardJavaFileManager manager = javac.getStandardFileManager(null, null, null)) {
            List<String> options = List.of("--release", "17", "-proc:none",
                    "-classpath", System.getProperty("java.class.path"), "-d", classes.toString());
            boolean ok = javac.getTask(errors, manager, null, options, null, manager.getJavaFileObjectsFromPaths(files)).call();
            assertTrue(ok, "the code of README.md and " + WRITING + " does not compile:\n" + errors);
        }
        return new URLClassLoader(new URL[] {classes.toUri().toURL()}, ReadmeCode.class.getClassLoader());
    }

    private static List<Snippets.Snippet> javaSnippets() {
        List<Snippets.Snippet> java = new ArrayList<>();
        for (Path page : List.of(README, WRITING)) {
            // the Spring Boot application's files are compiled and tested by src/it/spring-boot, against Spring
            Snippets.of(page).all().stream().filter(s -> s.language().equals("java"))
                    .filter(s -> s.file() == null || !s.file().startsWith("src/it/spring-boot/")).forEach(java::add);
        }
        assertTrue(java.stream().anyMatch(s -> s.file() == null), WRITING + " shows a compiled decorator");
        return java;
    }

    /** A file block keeps its path below src/main/java or src/test/java; a compiled block is named after its class. */
    private static String sourcePath(Snippets.Snippet snippet) {
        if (snippet.file() != null) {
            return snippet.file().replaceFirst("^.*/src/(main|test)/java/", "");
        }
        String declaration = snippet.text().lines().filter(l -> l.startsWith("public final class ") || l.startsWith("public class ")).findFirst()
                .orElseThrow(() -> new AssertionError(snippet.where() + ": a compiled block declares a public class"));
        return declaration.replaceFirst("^public (final )?class ", "").split(" ")[0] + ".java";
    }

    private static void clear(Path directory) throws IOException {
        if (Files.exists(directory)) {
            try (Stream<Path> tree = Files.walk(directory)) {
                for (Path path : tree.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }
}
