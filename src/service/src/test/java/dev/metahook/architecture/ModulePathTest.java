package dev.metahook.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.metahook.Metahook;
import dev.metahook.testkit.HookTester;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.model.annotation.Group;
import java.io.File;
import java.lang.module.ModuleDescriptor;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The published library jars on the module path (docs/design.md, "The fence"): each names its module in its manifest
 * (Automatic-Module-Name), so a user's module requires it by a name that does not change with the jar's file name,
 * and a user's module that requires {@code dev.metahook} compiles against the jars the build made.
 */
class ModulePathTest {
    /** Each library jar on this test's class path, by a class it holds, and the module name it must carry. */
    private static final Map<Class<?>, String> MODULES = Map.of(
            Metahook.class, "dev.metahook",
            HookTester.class, "dev.metahook.testkit",
            dev.metahook.manifests.Manifests.class, "dev.metahook.manifests");

    @Test
    void everyLibraryJarNamesItsModule() throws Exception {
        for (Map.Entry<Class<?>, String> module : MODULES.entrySet()) {
            Path jar = jarOf(module.getKey());
            try (JarFile file = new JarFile(jar.toFile())) {
                assertEquals(module.getValue(), file.getManifest().getMainAttributes().getValue("Automatic-Module-Name"), jar.toString());
            }
        }
    }

    @Test
    void aUsersModuleRequiringMetahookCompilesAgainstTheJars(@TempDir Path temp) throws Exception {
        Path sources = temp.resolve("src");
        write(sources.resolve("module-info.java"), """
                module example.greeting {
                    requires dev.metahook;
                    requires kubernetes.model.core;
                }
                """);
        write(sources.resolve("example/GreetingController.java"), """
                package example;

                import dev.metahook.api.CompositeController;
                import dev.metahook.api.Context;
                import dev.metahook.api.CustomResource;
                import dev.metahook.api.Result;
                import io.fabric8.kubernetes.api.model.ConfigMapBuilder;

                public final class GreetingController implements CompositeController<GreetingController.Greeting, Void> {
                    public static final class Greeting extends CustomResource<Void, Void> {
                    }

                    @Override
                    public Result<Void> sync(Greeting greeting, Context context) {
                        return Result.of(new ConfigMapBuilder().withNewMetadata().withName(greeting.getMetadata().getName())
                                .endMetadata().build());
                    }
                }
                """);
        Path classes = temp.resolve("classes");
        String modulePath = modulePath(Metahook.class, ConfigMap.class, KubernetesResource.class, Group.class, JsonInclude.class);

        List<String> errors = compile(sources, classes, modulePath);

        assertEquals(List.of(), errors, "on the module path " + modulePath);
        ModuleDescriptor compiled = ModuleDescriptor.read(Files.newInputStream(classes.resolve("module-info.class")));
        assertTrue(compiled.requires().stream().anyMatch(requires -> requires.name().equals("dev.metahook")), compiled.toString());
    }

    private static List<String> compile(Path sources, Path classes, String modulePath) throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, null);
                var tree = Files.walk(sources)) {
            List<File> java = tree.filter(file -> file.toString().endsWith(".java")).map(Path::toFile).toList();
            List<String> options = List.of("--release", "17", "-d", classes.toString(), "--module-path", modulePath);
            javac.getTask(null, files, diagnostics, options, null, files.getJavaFileObjectsFromFiles(java)).call();
        }
        List<String> errors = new ArrayList<>();
        diagnostics.getDiagnostics().stream().filter(diagnostic -> diagnostic.getKind() == javax.tools.Diagnostic.Kind.ERROR)
                .forEach(diagnostic -> errors.add(diagnostic.getMessage(Locale.ROOT)));
        return errors;
    }

    /** The jars holding the given classes: the library's own, as the build made it, and the few a user module reads. */
    private static String modulePath(Class<?>... types) throws URISyntaxException {
        List<String> jars = new ArrayList<>();
        for (Class<?> type : types) {
            jars.add(jarOf(type).toString());
        }
        return jars.stream().distinct().collect(Collectors.joining(File.pathSeparator));
    }

    private static Path jarOf(Class<?> type) throws URISyntaxException {
        Path location = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertTrue(Files.isRegularFile(location) && location.toString().endsWith(".jar"),
                type.getName() + " comes from a jar (run by Maven after the package phase), not " + location);
        return location;
    }

    private static void write(Path file, String text) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }
}
