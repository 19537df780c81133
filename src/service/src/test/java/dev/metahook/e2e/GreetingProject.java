package dev.metahook.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import dev.metahook.api.Controllers;
import dev.metahook.manifests.ManifestOptions;
import dev.metahook.manifests.Manifests;

/**
 * The project README's "Write a controller" starts from: {@code java -jar target/metahook.jar init DIR}
 * writes it, its main sources are compiled against this build's classes (the project's own
 * {@code mvn verify} is src/it/init/run's to prove), and its manifests step writes the kustomize directory
 * as the pom's metahook-maven-plugin does: its registration method and service name, through the library the
 * plugin runs.
 */
final class GreetingProject {
    private static final YAMLMapper YAML = new YAMLMapper();

    private final Path directory;
    private final Path classes;
    private final Path deploy;

    private GreetingProject(Path directory, Path classes, Path deploy) {
        this.directory = directory;
        this.classes = classes;
        this.deploy = deploy;
    }

    /** Runs the init command into {@code work/greeting-controller}, then compiles the project's main sources into its {@code target/classes}. */
    static GreetingProject init(Path work, Commands commands) throws Exception {
        Path project = work.resolve("greeting-controller");
        commands.run(Duration.ofMinutes(1), "java", "-jar", "target/metahook.jar", "init", project.toString());
        GreetingProject made = new GreetingProject(project, project.resolve("target/classes"), project.resolve("target/deploy"));
        made.compile();
        return made;
    }

    /**
     * The Greeting consumer of {@code src/it/consumer} (the same pom plugin configuration as the init
     * project's), its main sources compiled into {@code work}, where its manifests go too.
     */
    static GreetingProject consumer(Path work) throws Exception {
        GreetingProject made = new GreetingProject(Path.of("src/it/consumer"), work.resolve("consumer-classes"), work.resolve("consumer-deploy"));
        made.compile();
        return made;
    }

    Path directory() {
        return directory;
    }

    /** The project's manifests step: its kustomize directory for this image ({@code target/deploy/} of an init project). */
    Path manifests(String image) throws Exception {
        String pom = Files.readString(directory.resolve("pom.xml"));
        if (!pom.contains("<controllers>example.GreetingService#controllers</controllers>") || !pom.contains("<service>greeting</service>")) {
            throw new IllegalStateException("the project's pom no longer runs the manifests plugin as this rig does:\n" + pom);
        }
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                GreetingProject.class.getClassLoader())) {
            Controllers controllers = (Controllers) Class.forName("example.GreetingService", true, loader).getMethod("controllers").invoke(null);
            Manifests.write(controllers, ManifestOptions.service("greeting", image), deploy);
        }
        return deploy;
    }

    /** The project's Greeting, {@code greeting.yaml}. */
    ObjectNode greeting() throws IOException {
        return (ObjectNode) YAML.readTree(directory.resolve("greeting.yaml").toFile());
    }

    /** The documents of a multi-document YAML stream, such as {@code kubectl kustomize} prints. */
    static List<ObjectNode> documents(String yaml) throws IOException {
        List<ObjectNode> documents = new ArrayList<>();
        try (MappingIterator<ObjectNode> read = YAML.readerFor(ObjectNode.class).readValues(yaml)) {
            read.forEachRemaining(documents::add);
        }
        return documents;
    }

    private void compile() throws IOException {
        Files.createDirectories(classes);
        List<Path> sources;
        try (Stream<Path> tree = Files.walk(directory.resolve("src/main/java"))) {
            sources = tree.filter(path -> path.toString().endsWith(".java")).sorted().toList();
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter errors = new StringWriter();
        try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, null)) {
            List<String> options = List.of("--release", "17", "-proc:none", "-classpath", System.getProperty("java.class.path"),
                    "-d", classes.toString());
            assertTrue(javac.getTask(errors, files, null, options, null, files.getJavaFileObjectsFromPaths(sources)).call(),
                    "the project init wrote does not compile:\n" + errors);
        }
    }
}
