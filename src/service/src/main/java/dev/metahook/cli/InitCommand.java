package dev.metahook.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.lang.model.SourceVersion;

/**
 * {@code init}: a new project of a user's, the README's "Write a controller" file for file (a pom with the
 * compiler release, Surefire, JUnit, the metahook BOM, metahook, its test kit at test scope, the manifests plugin and the
 * shaded service jar; a Dockerfile; the Greeting-style controller, its service, its test and an example resource), with the package and
 * the name given. The templates are resources next to this class; InitTemplatesTest keeps them equal to
 * the README's blocks. With {@code --spring}, the same controller in a Spring Boot application
 * (docs/spring-boot.md): the templates under {@code init/spring/} in place of the pom, the Dockerfile, the service
 * and the test, and an {@code application.yaml}.
 */
final class InitCommand {
    static final String USAGE = "usage: java -jar metahook.jar init <directory> [--group <maven groupId>] [--package <java package>]"
            + " [--name <lowercase name, words joined by '-'>] [--kind <the parent's kind>] [--api-group <the CRD's API group>]"
            + " [--metahook-version <version>] [--spring]";
    /** The Spring Boot a {@code --spring} project is built on: the one the starter is built against. */
    static final String SPRING_BOOT_VERSION = "3.5.7";

    static final String DEFAULT_GROUP = "example";
    static final String DEFAULT_PACKAGE = "example";
    static final String DEFAULT_NAME = "greeting";
    static final String DEFAULT_API_GROUP = "example.com";

    private static final Pattern GROUP = Pattern.compile("[A-Za-z0-9_.-]+");
    private static final Pattern PACKAGE = Pattern.compile("[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*");
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");
    private static final Pattern KIND = Pattern.compile("[A-Z][A-Za-z0-9]{0,62}");
    private static final Pattern API_GROUP = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+");
    private static final Pattern IMPORT = Pattern.compile("(?m)^import (?:static )?[\\w.]+\\.(\\w+);$");
    /** The local names the Java templates declare beside the parent's variable: a variable of that name would clash. */
    private static final Set<String> LOCALS = Set.of("answer", "conditions", "context", "map", "observed", "report");
    private static final String POM_PROPERTIES = "/META-INF/maven/dev.metahook/metahook/pom.properties";

    /** Template resource and the file it becomes, in the order they are written. */
    private static final Map<String, String> TEMPLATES = templates();
    private static final Map<String, String> SPRING_TEMPLATES = springTemplates();

    private InitCommand() {
    }

    private static Map<String, String> templates() {
        Map<String, String> templates = new LinkedHashMap<>();
        templates.put("pom.xml.tmpl", "pom.xml");
        templates.put("Dockerfile.tmpl", "Dockerfile");
        templates.put("gitignore.tmpl", ".gitignore");
        templates.put("resource.yaml.tmpl", "{{name}}.yaml");
        templates.put("Resource.java.tmpl", "src/main/java/{{packagePath}}/{{Name}}.java");
        templates.put("Controller.java.tmpl", "src/main/java/{{packagePath}}/{{Name}}Controller.java");
        templates.put("Service.java.tmpl", "src/main/java/{{packagePath}}/{{Name}}Service.java");
        templates.put("ControllerTest.java.tmpl", "src/test/java/{{packagePath}}/{{Name}}ControllerTest.java");
        return templates;
    }

    private static Map<String, String> springTemplates() {
        Map<String, String> templates = new LinkedHashMap<>();
        templates.put("spring/pom.xml.tmpl", "pom.xml");
        templates.put("spring/Dockerfile.tmpl", "Dockerfile");
        templates.put("gitignore.tmpl", ".gitignore");
        templates.put("resource.yaml.tmpl", "{{name}}.yaml");
        templates.put("Resource.java.tmpl", "src/main/java/{{packagePath}}/{{Name}}.java");
        templates.put("spring/Controller.java.tmpl", "src/main/java/{{packagePath}}/{{Name}}Controller.java");
        templates.put("spring/Application.java.tmpl", "src/main/java/{{packagePath}}/{{Name}}Application.java");
        templates.put("spring/application.yaml.tmpl", "src/main/resources/application.yaml");
        templates.put("spring/ControllerTest.java.tmpl", "src/test/java/{{packagePath}}/{{Name}}ControllerTest.java");
        return templates;
    }

    /**
     * What a project is made from: the Maven groupId, the Java package, the controller's name (also its URL path,
     * the artifact's and the namespace's), the parent's kind (null: the name's words capitalized, {@code static-site}
     * → {@code StaticSite}), the CRD's API group and metahook's version.
     */
    record Project(String group, String javaPackage, String name, String kind, String apiGroup, String metahookVersion) {
        Project {
            if (!GROUP.matcher(group).matches()) {
                throw new UsageException("--group " + group + ": not a Maven groupId (letters, digits, '.', '-', '_')\n" + USAGE);
            }
            if (!PACKAGE.matcher(javaPackage).matches() || !SourceVersion.isName(javaPackage)) {
                throw new UsageException("--package " + javaPackage + ": not a lowercase Java package name (such as com.example.greeting)\n" + USAGE);
            }
            if (!NAME.matcher(name).matches() || name.length() > 40) {
                throw new UsageException("--name " + name
                        + ": not a name for the controller (lowercase letters and digits, starting with a letter, words joined by '-',"
                        + " at most 40; it is the controller's name, its URL path and the namespace <name>-system, and gives the kind:"
                        + " static-site is StaticSite)\n" + USAGE);
            }
            if (kind == null) {
                kind = kindOf(name);
            } else if (!KIND.matcher(kind).matches()) {
                throw new UsageException("--kind " + kind + ": not a kind (a letter A to Z, then letters and digits, such as StaticSite)\n" + USAGE);
            }
            String option = kind.equals(kindOf(name)) ? "--name " + name : "--kind " + kind;
            if (takenNames().contains(kind)) {
                throw new UsageException(option + ": the kind " + kind + " would hide a class the project uses\n" + USAGE);
            }
            String variable = variableOf(kind);
            if (SourceVersion.isKeyword(variable) || LOCALS.contains(variable)) {
                throw new UsageException(option + ": the kind " + kind + " makes the variable " + variable
                        + ", which Java or the project's code already uses\n" + USAGE);
            }
            if (!API_GROUP.matcher(apiGroup).matches() || apiGroup.length() > 253) {
                throw new UsageException("--api-group " + apiGroup + ": not an API group for a CRD (a lowercase DNS name with at least"
                        + " one dot, such as example.com)\n" + USAGE);
            }
            if (metahookVersion.isBlank()) {
                throw new UsageException("--metahook-version: empty\n" + USAGE);
            }
        }

        /** The defaults' kind (the name's) and API group. */
        Project(String group, String javaPackage, String name, String metahookVersion) {
            this(group, javaPackage, name, null, DEFAULT_API_GROUP, metahookVersion);
        }

        String substitute(String template) {
            return template.replace("{{group}}", group)
                    .replace("{{package}}", javaPackage)
                    .replace("{{packagePath}}", javaPackage.replace('.', '/'))
                    .replace("{{Name}}", kind)
                    .replace("{{variable}}", variableOf(kind))
                    .replace("{{apiGroup}}", apiGroup)
                    .replace("{{name}}", name)
                    .replace("{{metahookVersion}}", metahookVersion)
                    .replace("{{springBootVersion}}", SPRING_BOOT_VERSION);
        }
    }

    /** {@code static-site} → {@code StaticSite}, {@code greeting} → {@code Greeting}. */
    private static String kindOf(String name) {
        StringBuilder kind = new StringBuilder();
        for (String word : name.split("-")) {
            kind.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
        }
        return kind.toString();
    }

    /** {@code StaticSite} → {@code staticSite}: the parent's variable in the Java files. */
    private static String variableOf(String kind) {
        return Character.toLowerCase(kind.charAt(0)) + kind.substring(1);
    }

    static int run(List<String> args, PrintStream out) {
        if (args.isEmpty() || args.get(0).startsWith("-")) {
            Arguments.parse(args, Set.of(), USAGE); // --help prints the usage; anything else is refused below
            throw new UsageException("the project's directory is required\n" + USAGE);
        }
        Path directory = Path.of(args.get(0));
        List<String> options = new java.util.ArrayList<>(args.subList(1, args.size()));
        boolean spring = options.remove("--spring");
        Arguments arguments = Arguments.parse(options,
                Set.of("group", "package", "name", "kind", "api-group", "metahook-version"), USAGE);
        String version = arguments.optional("metahook-version");
        Project project = new Project(or(arguments.optional("group"), DEFAULT_GROUP), or(arguments.optional("package"), DEFAULT_PACKAGE),
                or(arguments.optional("name"), DEFAULT_NAME), arguments.optional("kind"), or(arguments.optional("api-group"), DEFAULT_API_GROUP),
                version != null ? version : ownVersion());
        List<Path> files = write(project, directory, spring);
        out.println("init: wrote " + files.size() + " files to " + directory + " (cd " + directory + " && mvn verify)");
        return 0;
    }

    /**
     * Writes the project into {@code directory}, which must be missing or empty: nothing of the user's is
     * overwritten. Returns the files written, relative to it.
     */
    static List<Path> write(Project project, Path directory) {
        return write(project, directory, false);
    }

    /** As {@link #write(Project, Path)}; a Spring Boot application when {@code spring}. */
    static List<Path> write(Project project, Path directory, boolean spring) {
        refuseNonEmpty(directory);
        Map<Path, String> files = render(project, spring);
        try {
            for (Map.Entry<Path, String> file : files.entrySet()) {
                Path target = directory.resolve(file.getKey());
                Files.createDirectories(target.getParent());
                Files.writeString(target, file.getValue());
            }
        } catch (IOException e) {
            throw new UsageException("cannot write " + directory + ": " + e.getMessage());
        }
        return List.copyOf(files.keySet());
    }

    /** The project's files (path relative to its directory, text), in the order they are written. */
    static Map<Path, String> render(Project project) {
        return render(project, false);
    }

    /** As {@link #render(Project)}; a Spring Boot application's files when {@code spring}. */
    static Map<Path, String> render(Project project, boolean spring) {
        Map<Path, String> files = new LinkedHashMap<>();
        (spring ? SPRING_TEMPLATES : TEMPLATES).forEach((resource, target) -> files.put(Path.of(project.substitute(target)), project.substitute(template(resource))));
        return files;
    }

    /** metahook's own version, from the pom.properties Maven packs into its jar. */
    static String ownVersion() {
        try (InputStream in = InitCommand.class.getResourceAsStream(POM_PROPERTIES)) {
            if (in == null) {
                throw new UsageException("cannot tell metahook's version (no " + POM_PROPERTIES + " on the class path): give --metahook-version\n" + USAGE);
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void refuseNonEmpty(Path directory) {
        if (Files.isRegularFile(directory)) {
            throw new UsageException(directory + " is a file, not a directory");
        }
        if (Files.isDirectory(directory)) {
            try (Stream<Path> entries = Files.list(directory)) {
                if (entries.findAny().isPresent()) {
                    throw new UsageException(directory + " is not empty: init writes a new project into a new or empty directory");
                }
            } catch (IOException e) {
                throw new UsageException("cannot read " + directory + ": " + e.getMessage());
            }
        }
    }

    /** The simple names the Java templates import or declare beside the kind: a kind of that name would clash. */
    private static Set<String> takenNames() {
        Set<String> names = new java.util.TreeSet<>(Set.of("Spec", "Status", "Path", "String", "Object", "List"));
        Stream.concat(TEMPLATES.keySet().stream(), SPRING_TEMPLATES.keySet().stream())
                .filter(resource -> resource.endsWith(".java.tmpl")).forEach(resource -> {
            Matcher imported = IMPORT.matcher(template(resource));
            while (imported.find()) {
                names.add(imported.group(1));
            }
        });
        return names;
    }

    private static String template(String resource) {
        try (InputStream in = InitCommand.class.getResourceAsStream("init/" + resource)) {
            if (in == null) {
                throw new IllegalStateException("the init template " + resource + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String or(String value, String fallback) {
        return value != null ? value : fallback;
    }
}
