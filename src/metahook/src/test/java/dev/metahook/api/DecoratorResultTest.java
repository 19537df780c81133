package dev.metahook.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Target labels and annotations are a DecoratorController's: the methods that set them return a
 * {@link DecoratorResult}, which a composite's hooks cannot return. A composite's types are not decorator
 * types: {@link Result} and {@code DecoratorResult}, {@link Cleanup} and {@link DecoratorCleanup},
 * {@link Cleaner} and {@link DecoratorCleaner} are siblings (the results both a {@link HookResult}). Proved
 * by compiling code as a user would write it (javax.tools, against this build's classes) and reading
 * javac's errors.
 */
class DecoratorResultTest {
    private static final String IMPORTS = """
            import dev.metahook.api.*;
            import dev.metahook.testing.Widget;
            import io.fabric8.kubernetes.api.model.ConfigMap;
            import java.time.Duration;
            import java.util.List;
            """;

    @TempDir
    Path work;

    /** The control: the chains users write compile for both kinds, so a refusal below is the label's doing. */
    @Test
    void theCommonChainsCompileForCompositesAndDecorators() throws IOException {
        List<Diagnostic<? extends JavaFileObject>> errors = compile("Chains", IMPORTS + """
                public final class Chains {
                    public record Status(int copies) {}

                    static final class Copies implements CompositeController<Widget, Status>, Cleaner<Widget, Status> {
                        @Override
                        public Result<Status> sync(Widget widget, Context context) {
                            List<ConfigMap> copies = context.children().all(ConfigMap.class);
                            if (copies.isEmpty()) {
                                return Result.of(copies).deletingUnlisted();
                            }
                            return Result.of(copies).deletingUnlisted().resyncAfter(Duration.ofSeconds(30)).withStatus(new Status(copies.size()));
                        }

                        @Override
                        public Cleanup<Status> cleanup(Widget widget, Context context) {
                            return Cleanup.done(Result.of().deletingUnlisted());
                        }
                    }

                    static final class Labels implements DecoratorController<Widget, Status>, DecoratorCleaner<Widget, Status> {
                        @Override
                        public DecoratorResult<Status> sync(Widget widget, Context context) {
                            return Result.of().deletingUnlisted().withLabel("a", "b").withAnnotation("c", "d").withStatus(new Status(1));
                        }

                        @Override
                        public DecoratorCleanup<Status> cleanup(Widget widget, Context context) {
                            return DecoratorCleanup.done(Result.of().deletingUnlisted().removingLabel("a").removingAnnotation("c"));
                        }
                    }

                    static final class Plain implements DecoratorController<Widget, Status>, Cleaner<Widget, Status> {
                        @Override
                        public Result<Status> sync(Widget widget, Context context) {
                            return Result.of().deletingUnlisted();
                        }

                        @Override
                        public Cleanup<Status> cleanup(Widget widget, Context context) {
                            return Cleanup.done();
                        }
                    }

                    static final class Either implements DecoratorController<Widget, Status>, DecoratorCleaner<Widget, Status> {
                        @Override
                        public HookResult<Status> sync(Widget widget, Context context) {
                            if (context.finalizing()) {
                                return Result.of().deletingUnlisted();
                            }
                            return Result.of().deletingUnlisted().withLabel("a", "b");
                        }

                        @Override
                        public DecoratorCleanup<Status> cleanup(Widget widget, Context context) {
                            return context.children().all(ConfigMap.class).isEmpty() ? DecoratorCleanup.done()
                                    : DecoratorCleanup.inProgress(Result.of().deletingUnlisted()).withStatus(new Status(0));
                        }
                    }

                    static Controllers all() {
                        return Controllers.builder()
                                .decorator("plain-class", Widget.class, new Plain())
                                .decorator("either-class", Widget.class, new Either())
                                .composite("copies", Widget.class, new Copies())
                                .composite("lambda", Widget.class, (w, c) -> Result.of().deletingUnlisted().withStatus(new Status(0)))
                                .decorator("labels", Widget.class, new Labels())
                                .decorator("plain", Widget.class, (w, c) -> Result.of().deletingUnlisted())
                                .decorator("lambda-labels", Widget.class, (w, c) -> Result.of().withLabel("a", "b").withStatus(new Status(2)))
                                .decorator("either", Widget.class, (w, c) -> c.finalizing() ? Result.of().deletingUnlisted()
                                        : Result.of().deletingUnlisted().withLabel("a", "b"))
                                .build();
                    }
                }
                """);
        assertEquals(List.of(), errors.stream().map(DecoratorResultTest::describe).toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"withLabel(\"team\", \"a\")", "removingLabel(\"team\")", "withAnnotation(\"note\", \"x\")",
            "removingAnnotation(\"note\")"})
    void aCompositeLambdaThatChangesTheTargetDoesNotCompile(String change) throws IOException {
        String source = IMPORTS + """
                public final class Lambda {
                    static Controllers all() {
                        return Controllers.builder()
                                .composite("labels", Widget.class, (w, c) -> Result.keepingObserved().%s)
                                .build();
                    }
                }
                """.formatted(change);
        assertRefusedAt(compile("Lambda", source), lineOf(source, change));
    }

    @Test
    void aCompositeClassThatLabelsTheParentDoesNotCompile() throws IOException {
        String source = IMPORTS + """
                public final class Labelling implements CompositeController<Widget, Object> {
                    @Override
                    public Result<Object> sync(Widget widget, Context context) {
                        return Result.of(context.children().all(ConfigMap.class)).deletingUnlisted().withLabel("team", "a");
                    }
                }
                """;
        assertRefusedAt(compile("Labelling", source), lineOf(source, "withLabel"));
    }

    /** Declaring the wider type does not help: the composite's sync must return a Result. */
    @Test
    void aCompositeSyncDeclaredToReturnADecoratorResultDoesNotCompile() throws IOException {
        String source = IMPORTS + """
                public final class Wider implements CompositeController<Widget, Object> {
                    @Override
                    public DecoratorResult<Object> sync(Widget widget, Context context) {
                        return Result.of().withLabel("team", "a");
                    }
                }
                """;
        assertRefusedAt(compile("Wider", source), lineOf(source, "DecoratorResult<Object> sync"));
    }

    @Test
    void aCompositeCleanupThatRemovesALabelDoesNotCompile() throws IOException {
        String source = IMPORTS + """
                public final class Unlabelling implements CompositeController<Widget, Object>, Cleaner<Widget, Object> {
                    @Override
                    public Result<Object> sync(Widget widget, Context context) {
                        return Result.of().deletingUnlisted();
                    }

                    @Override
                    public Cleanup<Object> cleanup(Widget widget, Context context) {
                        return Cleanup.done(Result.of().deletingUnlisted().removingLabel("team"));
                    }
                }
                """;
        assertRefusedAt(compile("Unlabelling", source), lineOf(source, "removingLabel"), "DecoratorResult");
    }

    /** Neither sibling is the other: a composite's answer cannot be held as a decorator's, nor the other way round. */
    @ParameterizedTest
    @ValueSource(strings = {
        "DecoratorResult<Object> answer = Result.of();",
        "Result<Object> answer = Result.of().withLabel(\"a\", \"b\");",
        "DecoratorCleanup<Object> answer = Cleanup.done();",
        "Cleanup<Object> answer = DecoratorCleanup.done();",
        "DecoratorCleaner<Widget, Object> answer = (w, c) -> Cleanup.done();",
        "Cleaner<Widget, Object> answer = (w, c) -> DecoratorCleanup.done();"})
    void aCompositeTypeIsNotADecoratorType(String assignment) throws IOException {
        String source = IMPORTS + """
                public final class Siblings {
                    static void hold() {
                        %s
                    }
                }
                """.formatted(assignment);
        List<Diagnostic<? extends JavaFileObject>> errors = compile("Siblings", source);
        assertFalse(errors.isEmpty(), "the snippet compiled");
        assertTrue(errors.stream().allMatch(error -> error.getLineNumber() == lineOf(source, assignment)),
                errors.stream().map(DecoratorResultTest::describe).toList().toString());
    }

    /** The one way around the types, a composite whose cleanup is a DecoratorCleaner only, fails at registration. */
    @Test
    void aCompositeWhoseCleanupIsADecoratorCleanerIsRefusedAtRegistration() {
        final class Sneaky implements CompositeController<Widget, Object>, DecoratorCleaner<Widget, Object> {
            @Override
            public Result<Object> sync(Widget widget, Context context) {
                return Result.of().deletingUnlisted();
            }

            @Override
            public DecoratorCleanup<Object> cleanup(Widget widget, Context context) {
                return DecoratorCleanup.done(Result.of().removingLabel("team"));
            }
        }
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> Controllers.builder().composite("sneaky", Widget.class, new Sneaky()));
        assertTrue(refused.getMessage().startsWith("controller sneaky: a CompositeController's cleanup must be a Cleaner"),
                refused.getMessage());
        Controllers decorator = Controllers.builder().decorator("sneaky", Widget.class, (w, c) -> Result.of(), Declaration.none()).build();
        assertEquals(List.of(Hook.SYNC), List.copyOf(decorator.hooks("sneaky")));
        Controllers cleaning = Controllers.builder().decorator("sneaky", Widget.class, new Labels()).build();
        assertEquals(List.of(Hook.SYNC, Hook.FINALIZE), List.copyOf(cleaning.hooks("sneaky")));
    }

    @Test
    void aChainIsAResultUntilItChangesTheTargetAndKeepsEveryPartAfter() {
        var child = new ConfigMapBuilder().withNewMetadata().withName("c").endMetadata().build();
        HookResult<Object> plain = Result.of(child).deletingUnlisted().resyncAfter(Duration.ofSeconds(5));
        assertInstanceOf(Result.class, plain);
        assertFalse(plain instanceof DecoratorResult<?>, "a result that changes nothing on the target is a Result only");

        DecoratorResult<Map<String, Integer>> labelled = Result.of(child).withLabel("a", "1").deletingUnlisted()
                .removingLabel("b").withAnnotation("n", "x").resyncAfter(Duration.ofSeconds(5)).withStatus(Map.of("copies", 1));
        HookResult<?> answer = labelled;
        assertFalse(answer instanceof Result<?>, "a result that labels the target is no longer a Result");
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("a", "1");
        labels.put("b", null);
        assertEquals(labels, labelled.labels());
        assertEquals(Map.of("n", "x"), labelled.annotations());
        assertEquals(List.of(child), labelled.objects());
        assertTrue(labelled.deletesUnlisted());
        assertEquals(Duration.ofSeconds(5), labelled.resyncAfter().orElseThrow());
        assertEquals(Map.of("copies", 1), labelled.status().orElseThrow());

        DecoratorCleanup<Object> cleanup = DecoratorCleanup.done(Result.of().removingLabel("a"));
        assertTrue(cleanup.isDone());
        DecoratorCleanup<Object> untouched = DecoratorCleanup.done();
        assertTrue(untouched.isDone() && untouched.result().keepsObserved());
        assertInstanceOf(Result.class, untouched.result(), "done() changes nothing on the target");
        assertInstanceOf(Result.class, Cleanup.done().withStatus("s").result());
        HookResult<Integer> inProgress = DecoratorCleanup.inProgress(Result.of().withAnnotation("k", "v")).withStatus(1).result();
        assertEquals(Map.of("k", "v"), assertInstanceOf(DecoratorResult.class, inProgress).annotations());
        assertEquals(1, inProgress.status().orElseThrow());
    }

    static final class Labels implements DecoratorController<Widget, Object>, DecoratorCleaner<Widget, Object> {
        @Override
        public DecoratorResult<Object> sync(Widget widget, Context context) {
            return Result.of().withLabel("team", "a");
        }

        @Override
        public DecoratorCleanup<Object> cleanup(Widget widget, Context context) {
            return DecoratorCleanup.done(Result.of().removingLabel("team"));
        }
    }

    private static void assertRefusedAt(List<Diagnostic<? extends JavaFileObject>> errors, long line) {
        assertRefusedAt(errors, line, "DecoratorResult");
    }

    /** javac's refusal is an error on that line of the snippet, about the decorator's type it was given. */
    private static void assertRefusedAt(List<Diagnostic<? extends JavaFileObject>> errors, long line, String type) {
        List<String> described = errors.stream().map(DecoratorResultTest::describe).toList();
        assertFalse(errors.isEmpty(), "the snippet compiled");
        assertTrue(errors.stream().anyMatch(error -> error.getLineNumber() == line && error.getMessage(Locale.ROOT).contains(type)),
                described.toString());
    }

    /** The 1-based line of the snippet that holds this text. */
    private static long lineOf(String source, String text) {
        List<String> lines = source.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i + 1;
            }
        }
        throw new AssertionError("the snippet has no " + text);
    }

    private static String describe(Diagnostic<? extends JavaFileObject> diagnostic) {
        return diagnostic.getLineNumber() + ": " + diagnostic.getMessage(Locale.ROOT);
    }

    /** The errors javac reports for one source file, compiled as a user's project would be, against this build. */
    private List<Diagnostic<? extends JavaFileObject>> compile(String className, String source) throws IOException {
        Path file = work.resolve(className + ".java");
        Files.writeString(file, source);
        Path classes = Files.createDirectories(work.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager manager = javac.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
            List<String> options = List.of("--release", "17", "-proc:none", "-classpath", System.getProperty("java.class.path"),
                    "-d", classes.toString());
            javac.getTask(null, manager, diagnostics, options, null, manager.getJavaFileObjects(file)).call();
        }
        return diagnostics.getDiagnostics().stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR).toList();
    }
}
