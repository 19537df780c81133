package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.api.Controllers;
import dev.metahook.testkit.CheckReport;
import dev.metahook.testkit.HookTester;
import dev.metahook.testkit.Manifests;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code init} writes a whole project whose package, paths, names and main class agree, and which compiles and checks clean. */
class InitCommandTest {
    private static final Pattern PACKAGE_LINE = Pattern.compile("(?m)^package ([\\w.]+);$");

    @TempDir
    Path temp;

    @Test
    void writesTheProjectWithTheDefaults() throws IOException {
        Path project = temp.resolve("greeting-controller");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = InitCommand.run(List.of(project.toString(), "--metahook-version", "9.8.7"), new PrintStream(out, true, StandardCharsets.UTF_8));
        assertEquals(0, code);
        assertEquals(Set.of("pom.xml", "Dockerfile", ".gitignore", "greeting.yaml",
                "src/main/java/example/Greeting.java", "src/main/java/example/GreetingController.java",
                "src/main/java/example/GreetingService.java",
                "src/test/java/example/GreetingControllerTest.java"), files(project));
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("init: wrote 8 files to " + project), out.toString(StandardCharsets.UTF_8));
        assertEquals("example", pom(project, "/project/groupId"));
        assertEquals("greeting-controller", pom(project, "/project/artifactId"));
        assertEquals("17", pom(project, "/project/properties/maven.compiler.release"));
        assertEquals("9.8.7", pom(project, "/project/properties/metahook.version"));
        assertEquals("${metahook.version}", pom(project, "/project/dependencyManagement/dependencies/dependency[artifactId='metahook-bom']/version"));
        assertEquals("import", pom(project, "/project/dependencyManagement/dependencies/dependency[artifactId='metahook-bom']/scope"));
        assertEquals("dev.metahook", pom(project, "/project/dependencies/dependency[artifactId='metahook']/groupId"));
        assertEquals("", pom(project, "/project/dependencies/dependency[artifactId='metahook']/version"), "the BOM gives the version");
        assertEquals("test", pom(project, "/project/dependencies/dependency[artifactId='metahook-testkit']/scope"));
        assertEquals("example.GreetingService#controllers",
                pom(project, "/project/build/plugins/plugin[artifactId='metahook-maven-plugin']/executions/execution/configuration/controllers"));
        assertEquals("example.GreetingService", mainClass(project));
        String dockerfile = Files.readString(project.resolve("Dockerfile"));
        assertTrue(dockerfile.contains("COPY target/greeting-controller-1.0.0-service.jar "), dockerfile);
        assertTrue(dockerfile.contains("USER 10001:10001"), dockerfile);
        String own = Files.readAllLines(Path.of("Dockerfile")).stream().filter(line -> line.startsWith("FROM eclipse-temurin")).findFirst().orElseThrow();
        assertTrue(dockerfile.contains("\n" + own + "\n"), "the runtime base metahook's own image runs on, by its digest: " + own);
        assertFalse(dockerfile.contains("{{") || Files.readString(project.resolve("pom.xml")).contains("{{"));
    }

    @Test
    void pinsSurefireAndJUnitAsTheProjectsOwnBuildDoes() throws IOException {
        Path project = temp.resolve("p");
        InitCommand.write(new InitCommand.Project("example", "example", "greeting", "1.0"), project);
        String pom = Files.readString(project.resolve("pom.xml"));
        String own = Files.readString(Path.of("pom.xml"));
        Matcher surefire = Pattern.compile("<artifactId>maven-surefire-plugin</artifactId><version>([^<]+)</version>").matcher(own);
        assertTrue(surefire.find(), "the project's pom pins Surefire");
        assertTrue(pom.contains("<artifactId>maven-surefire-plugin</artifactId><version>" + surefire.group(1) + "</version>"), pom);
        Matcher junit = Pattern.compile("<junit.version>([^<]+)</junit.version>").matcher(own);
        assertTrue(junit.find(), "the project's pom pins JUnit");
        assertTrue(pom.contains("<artifactId>junit-jupiter</artifactId>\n      <version>" + junit.group(1) + "</version>"), pom);
        assertTrue(pom.contains("<artifactId>maven-shade-plugin</artifactId>"), pom);
    }

    /** Another package and name: every package line matches its file's path, the kind is renamed everywhere, and it compiles and checks clean. */
    @Test
    void anotherPackageAndNameMakeAConsistentProjectThatChecksClean() throws Exception {
        Path project = temp.resolve("salute");
        InitCommand.run(List.of(project.toString(), "--group", "com.acme", "--package", "com.acme.hello", "--name", "salute",
                "--metahook-version", "0.1.0-SNAPSHOT"), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        List<Path> sources;
        try (Stream<Path> tree = Files.walk(project.resolve("src"))) {
            sources = tree.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        assertEquals(4, sources.size(), sources.toString());
        for (Path source : sources) {
            String text = Files.readString(source);
            Matcher declared = PACKAGE_LINE.matcher(text);
            assertTrue(declared.find(), source + " declares a package");
            assertEquals("com.acme.hello", declared.group(1), source.toString());
            Path below = project.resolve("src").relativize(source); // main/java/com/acme/hello/Salute.java
            assertEquals(Path.of("com/acme/hello"), below.subpath(2, below.getNameCount() - 1), source.toString());
            assertTrue(text.contains("class Salute"), source + " declares a Salute class");
            assertFalse(text.contains("Greeting") || text.contains("greeting") || text.contains("package example"), source + " still names the example");
        }
        assertEquals("com.acme.hello.SaluteService", mainClass(project));
        assertEquals("com.acme.hello.SaluteService#controllers",
                pom(project, "/project/build/plugins/plugin[artifactId='metahook-maven-plugin']/executions/execution/configuration/controllers"));
        assertEquals("salute",
                pom(project, "/project/build/plugins/plugin[artifactId='metahook-maven-plugin']/executions/execution/configuration/service"));
        assertEquals("com.acme", pom(project, "/project/groupId"));
        assertTrue(Files.readString(project.resolve("salute.yaml")).contains("kind: Salute\n"));

        ClassLoader compiled = compile(sources, temp.resolve("classes"));
        Controllers controllers = (Controllers) Class.forName("com.acme.hello.SaluteService", true, compiled).getMethod("controllers").invoke(null);
        @SuppressWarnings("unchecked")
        Class<? extends HasMetadata> kind = (Class<? extends HasMetadata>) Class.forName("com.acme.hello.Salute", true, compiled);
        CheckReport report = HookTester.of(controllers, "salute").check(Manifests.read(project.resolve("salute.yaml"), kind));
        assertTrue(report.clean(), report.toString());
        assertTrue(Class.forName("com.acme.hello.SaluteControllerTest", false, compiled).getDeclaredMethods().length >= 2);
    }

    /**
     * {@code --name static-site} is the kind StaticSite (a name of one word stays capitalized, {@code --kind} says another),
     * {@code --api-group} the CRD's group apart from the Maven groupId; the project compiles, and its parent is read and
     * checked clean under that group (issue 37 papercuts).
     */
    @Test
    void aDashedNameMakesTheKindOfItsWordsAndTheApiGroupIsTheCrdsOwn() throws Exception {
        Path project = temp.resolve("site");
        InitCommand.run(List.of(project.toString(), "--group", "com.acme", "--package", "com.acme.site", "--name", "static-site",
                "--api-group", "sites.acme.io", "--metahook-version", "0.1.0-SNAPSHOT"),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertTrue(Files.isRegularFile(project.resolve("src/main/java/com/acme/site/StaticSite.java")), files(project).toString());
        String parent = Files.readString(project.resolve("static-site.yaml"));
        assertTrue(parent.startsWith("apiVersion: sites.acme.io/v1\nkind: StaticSite\n"), parent);
        assertTrue(Files.readString(project.resolve("src/main/java/com/acme/site/StaticSite.java")).contains("@Group(\"sites.acme.io\")"));
        assertEquals("com.acme", pom(project, "/project/groupId"), "--group stays the Maven groupId");
        assertEquals("static-site-controller", pom(project, "/project/artifactId"));
        List<Path> sources;
        try (Stream<Path> tree = Files.walk(project.resolve("src"))) {
            sources = tree.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        ClassLoader compiled = compile(sources, temp.resolve("site-classes"));
        Controllers controllers = (Controllers) Class.forName("com.acme.site.StaticSiteService", true, compiled).getMethod("controllers").invoke(null);
        @SuppressWarnings("unchecked")
        Class<? extends HasMetadata> kind = (Class<? extends HasMetadata>) Class.forName("com.acme.site.StaticSite", true, compiled);
        assertEquals("sites.acme.io/v1", HasMetadata.getApiVersion(kind));
        assertEquals("staticsites", HasMetadata.getPlural(kind));
        CheckReport report = HookTester.of(controllers, "static-site").check(Manifests.read(project.resolve("static-site.yaml"), kind));
        assertTrue(report.clean(), report.toString());

        Path named = temp.resolve("named");
        InitCommand.run(List.of(named.toString(), "--name", "staticsite", "--kind", "StaticSite", "--metahook-version", "1"),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertTrue(Files.readString(named.resolve("staticsite.yaml")).contains("kind: StaticSite\n"));
        assertTrue(Files.isRegularFile(named.resolve("src/main/java/example/StaticSiteController.java")), files(named).toString());
    }

    /** The generated test says why a call failed (its status and problem) before it reads a child of the answer. */
    @Test
    void theGeneratedTestAssertsTheAnswerIsOkBeforeReadingAChild() throws IOException {
        Path project = temp.resolve("ok");
        InitCommand.write(new InitCommand.Project("example", "example", "greeting", "1.0"), project);
        String test = Files.readString(project.resolve("src/test/java/example/GreetingControllerTest.java"));
        int ok = test.indexOf("assertTrue(answer.ok(), answer.toString());");
        assertTrue(ok > 0 && ok < test.indexOf("answer.child("), test);
    }

    /**
     * {@code --spring}: the controller as a bean of a Spring Boot application, on the Boot the starter is built against,
     * with metahook's BOM imported before Boot's, the registration the manifests goal reads, and Boot's executable jar in
     * the image.
     */
    @Test
    void writesASpringBootApplicationWithSpring() throws IOException {
        Path project = temp.resolve("greeting-controller");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = InitCommand.run(List.of(project.toString(), "--spring", "--metahook-version", "9.8.7"), new PrintStream(out, true, StandardCharsets.UTF_8));
        assertEquals(0, code);
        assertEquals(Set.of("pom.xml", "Dockerfile", ".gitignore", "greeting.yaml",
                "src/main/java/example/Greeting.java", "src/main/java/example/GreetingController.java",
                "src/main/java/example/GreetingApplication.java", "src/main/resources/application.yaml",
                "src/test/java/example/GreetingControllerTest.java"), files(project));
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("init: wrote 9 files to " + project), out.toString(StandardCharsets.UTF_8));
        assertEquals("9.8.7", pom(project, "/project/properties/metahook.version"));
        Matcher starterBoot = Pattern.compile("<spring-boot.version>([^<]+)</spring-boot.version>")
                .matcher(Files.readString(Path.of("src/spring-boot-starter/pom.xml")));
        assertTrue(starterBoot.find(), "the starter's pom names its Boot");
        assertEquals(starterBoot.group(1), pom(project, "/project/properties/spring-boot.version"));
        assertEquals("metahook-bom", pom(project, "/project/dependencyManagement/dependencies/dependency[1]/artifactId"));
        assertEquals("spring-boot-dependencies", pom(project, "/project/dependencyManagement/dependencies/dependency[2]/artifactId"));
        assertEquals("import", pom(project, "/project/dependencyManagement/dependencies/dependency[2]/scope"));
        assertEquals("", pom(project, "/project/dependencies/dependency[artifactId='metahook-spring-boot-starter']/version"), "the BOM gives the version");
        assertEquals("", pom(project, "/project/dependencies/dependency[artifactId='metahook']/artifactId"), "the starter brings metahook");
        assertEquals("test", pom(project, "/project/dependencies/dependency[artifactId='metahook-testkit']/scope"));
        assertEquals("test", pom(project, "/project/dependencies/dependency[artifactId='spring-boot-starter-test']/scope"));
        assertEquals("example.GreetingApplication#registration",
                pom(project, "/project/build/plugins/plugin[artifactId='metahook-maven-plugin']/executions/execution/configuration/controllers"));
        assertEquals("repackage", pom(project, "/project/build/plugins/plugin[artifactId='spring-boot-maven-plugin']/executions/execution/goals/goal"));
        assertEquals("", pom(project, "/project/build/plugins/plugin[artifactId='maven-shade-plugin']/artifactId"), "Boot's jar, not a shaded one");
        String application = Files.readString(project.resolve("src/main/java/example/GreetingApplication.java"));
        assertTrue(application.contains("@SpringBootApplication\npublic class GreetingApplication {"), application);
        assertTrue(application.contains("public static Controllers registration() {"), application);
        assertTrue(Files.readString(project.resolve("src/main/java/example/GreetingController.java")).contains("@Component\npublic class GreetingController"));
        assertTrue(Files.readString(project.resolve("src/test/java/example/GreetingControllerTest.java")).contains("@SpringBootTest("));
        String yaml = Files.readString(project.resolve("src/main/resources/application.yaml"));
        assertTrue(yaml.contains("  port: 8082\n") && yaml.contains("metahook:\n  port: 8080\n")
                && yaml.contains("include: readinessState,metahook\n"), yaml);
        String dockerfile = Files.readString(project.resolve("Dockerfile"));
        assertTrue(dockerfile.contains("COPY target/greeting-controller-1.0.0.jar "), dockerfile);
        assertTrue(dockerfile.contains("USER 10001:10001"), dockerfile);
        String own = Files.readAllLines(Path.of("Dockerfile")).stream().filter(line -> line.startsWith("FROM eclipse-temurin")).findFirst().orElseThrow();
        assertTrue(dockerfile.contains("\n" + own + "\n"), "the runtime base metahook's own image runs on, by its digest: " + own);
        for (String file : files(project)) {
            assertFalse(Files.readString(project.resolve(file)).contains("{{"), file + " keeps a placeholder");
        }
    }

    /** {@code --spring} with another package and name: every package line matches its path, and nothing names the example. */
    @Test
    void aSpringBootApplicationTakesThePackageAndNameToo() throws IOException {
        Path project = temp.resolve("salute");
        InitCommand.run(List.of(project.toString(), "--package", "com.acme.hello", "--spring", "--name", "salute",
                "--metahook-version", "0.1.0-SNAPSHOT"), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        List<Path> sources;
        try (Stream<Path> tree = Files.walk(project.resolve("src"))) {
            sources = tree.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        assertEquals(4, sources.size(), sources.toString());
        for (Path source : sources) {
            String text = Files.readString(source);
            Matcher declared = PACKAGE_LINE.matcher(text);
            assertTrue(declared.find(), source + " declares a package");
            assertEquals("com.acme.hello", declared.group(1), source.toString());
            Path below = project.resolve("src").relativize(source);
            assertEquals(Path.of("com/acme/hello"), below.subpath(2, below.getNameCount() - 1), source.toString());
            assertTrue(text.contains("class Salute"), source + " declares a Salute class");
            assertFalse(text.contains("Greeting") || text.contains("greeting") || text.contains("package example"), source + " still names the example");
        }
        assertEquals("com.acme.hello.SaluteApplication#registration",
                pom(project, "/project/build/plugins/plugin[artifactId='metahook-maven-plugin']/executions/execution/configuration/controllers"));
        assertTrue(Files.readString(project.resolve("Dockerfile")).contains("COPY target/salute-controller-1.0.0.jar /opt/salute/"));
    }

    /** The command line as a user runs it: {@code java -jar metahook.jar init DIR}, exit 0 and one line, or exit 2 and one line. */
    @Test
    void runsFromTheCommandLine() throws Exception {
        Path project = temp.resolve("cli");
        Process made = main("init", project.toString(), "--metahook-version", "0.1.0-SNAPSHOT");
        String output = new String(made.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(made.waitFor(60, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(0, made.exitValue(), output);
        assertEquals("init: wrote 8 files to " + project + " (cd " + project + " && mvn verify)\n", output);
        assertTrue(Files.isRegularFile(project.resolve("src/main/java/example/GreetingService.java")));
        Process again = main("init", project.toString(), "--metahook-version", "0.1.0-SNAPSHOT");
        String refused = new String(again.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(again.waitFor(60, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(2, again.exitValue(), refused);
        assertEquals("metahook: " + project + " is not empty: init writes a new project into a new or empty directory\n", refused);
    }

    private static Process main(String... args) throws IOException {
        List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    @Test
    void refusesADirectoryThatIsNotEmptyAndLeavesItAlone() throws IOException {
        Path mine = Files.writeString(temp.resolve("notes.txt"), "mine");
        UsageException refused = assertThrows(UsageException.class,
                () -> InitCommand.run(List.of(temp.toString(), "--metahook-version", "1"), System.out));
        assertTrue(refused.getMessage().contains("is not empty"), refused.getMessage());
        assertEquals(Set.of("notes.txt"), files(temp));
        assertEquals("mine", Files.readString(mine));
    }

    @Test
    void refusesNamesThatCannotBeAProject() {
        for (List<String> options : List.of(List.of("--package", "Com.Example"), List.of("--package", "example.class"),
                List.of("--name", "Greeting"), List.of("--name", "my_app"), List.of("--name", "my--app"), List.of("--name", "app-"),
                List.of("--name", "result"), List.of("--name", "status"), List.of("--name", "class"), List.of("--name", "map"),
                List.of("--kind", "staticSite"), List.of("--kind", "Result"), List.of("--kind", "Class"), List.of("--api-group", "example"),
                List.of("--api-group", "Example.com"), List.of("--group", "a b"))) {
            List<String> args = Stream.concat(Stream.of(temp.resolve("x").toString(), "--metahook-version", "1"), options.stream()).toList();
            UsageException refused = assertThrows(UsageException.class, () -> InitCommand.run(args, System.out), options.toString());
            assertTrue(refused.getMessage().startsWith(options.get(0) + " " + options.get(1) + ": "), refused.getMessage());
            assertFalse(Files.exists(temp.resolve("x")), "nothing is written for " + options);
        }
    }

    @Test
    void needsADirectoryAndPrintsItsUsageOnHelp() {
        UsageException missing = assertThrows(UsageException.class, () -> InitCommand.run(List.of(), System.out));
        assertTrue(missing.getMessage().startsWith("the project's directory is required\n" + InitCommand.USAGE), missing.getMessage());
        UsageException help = assertThrows(UsageException.class, () -> InitCommand.run(List.of("--help"), System.out));
        assertTrue(help.isHelp());
        assertEquals(InitCommand.USAGE, help.getMessage());
        UsageException unknown = assertThrows(UsageException.class, () -> InitCommand.run(List.of("dir", "--colour", "X"), System.out));
        assertTrue(unknown.getMessage().startsWith("unknown option --colour"), unknown.getMessage());
    }

    /** A value of the pom (a well-formed XML document), by an XPath without namespaces. */
    private static String pom(Path project, String path) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(false);
            return XPathFactory.newInstance().newXPath().evaluate(path, factory.newDocumentBuilder().parse(project.resolve("pom.xml").toFile()));
        } catch (Exception e) {
            throw new AssertionError("the pom does not parse: " + e, e);
        }
    }

    private static String mainClass(Path project) throws IOException {
        Matcher main = Pattern.compile("<mainClass>([^<]+)</mainClass>").matcher(Files.readString(project.resolve("pom.xml")));
        assertTrue(main.find(), "the pom names the service's main class");
        return main.group(1);
    }

    private static Set<String> files(Path directory) throws IOException {
        try (Stream<Path> tree = Files.walk(directory)) {
            return tree.filter(Files::isRegularFile).map(p -> directory.relativize(p).toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static ClassLoader compile(List<Path> sources, Path classes) throws IOException {
        Files.createDirectories(classes);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter errors = new StringWriter();
        try (StandardJavaFileManager manager = javac.getStandardFileManager(null, null, null)) {
            List<String> options = List.of("--release", "17", "-proc:none", "-classpath", System.getProperty("java.class.path"),
                    "-d", classes.toString());
            assertTrue(javac.getTask(errors, manager, null, options, null, manager.getJavaFileObjectsFromPaths(sources)).call(),
                    "the project init writes does not compile:\n" + errors);
        }
        return new URLClassLoader(new URL[] {classes.toUri().toURL()}, InitCommandTest.class.getClassLoader());
    }
}
