package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahook.internal.wire.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * What can be checked of the image without a Docker engine: its stages, user, entrypoint and port
 * agree with the jar the build makes and with the Deployment that runs it; shutdown fits the grace period.
 */
class ContainerTest {
    private static final YAMLMapper YAML = new YAMLMapper();

    static List<String> instructions() throws Exception {
        List<String> lines = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : Files.readAllLines(Path.of("Dockerfile"))) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            current.append(line.strip());
            if (line.endsWith("\\")) {
                current.setLength(current.length() - 1);
                current.append(' ');
            } else {
                lines.add(current.toString());
                current.setLength(0);
            }
        }
        return lines;
    }

    private static List<String> all(String instruction) throws Exception {
        return instructions().stream().filter(line -> line.startsWith(instruction + " ")).map(line -> line.substring(instruction.length() + 1))
                .toList();
    }

    private static JsonNode deployment() throws Exception {
        for (JsonNode document : YAML.readValues(new YAMLFactory().createParser(Path.of("metacontroller/hook-service.yaml").toFile()),
                JsonNode.class).readAll()) {
            if ("Deployment".equals(document.path("kind").asText())) {
                return Json.parse(Json.mapper().writeValueAsBytes(document));
            }
        }
        throw new AssertionError("no Deployment");
    }

    @Test
    void buildsTheJarInOneStageAndRunsItOnAJreInAnother() throws Exception {
        List<String> from = all("FROM");
        assertEquals(2, from.size(), from.toString());
        assertTrue(from.get(0).startsWith("maven:") && from.get(0).endsWith(" AS build"), from.get(0));
        assertTrue(from.get(1).startsWith("eclipse-temurin:17") && from.get(1).contains("jre"), from.get(1));
        for (String base : from) {
            assertTrue(base.matches("[a-z0-9.-]+:[A-Za-z0-9._-]+@sha256:[0-9a-f]{64}( AS build)?"), "pinned by digest, the tag beside it: " + base);
        }
        assertTrue(Files.readString(Path.of("src/service/pom.xml")).contains("<outputFile>${repository.root}/target/metahook.jar</outputFile>"),
                "the shaded service jar is target/metahook.jar");
        assertTrue(all("COPY").contains("--from=build /src/target/metahook.jar /opt/metahook/metahook.jar"), all("COPY").toString());
        assertTrue(all("LABEL").get(0).contains("org.opencontainers.image.title=\"metahook\""));
    }

    /**
     * The dependency layer is the build itself on the pom alone (dependency:go-offline leaves plugin
     * dependencies out), and the build after the sources are copied runs offline, so a miss fails it.
     * DependencyLayerIT runs these steps.
     */
    @Test
    void theDependencyLayerIsTheSameBuildAndTheRealBuildRunsOffline() throws Exception {
        List<String> build = buildStage();
        int pom = build.indexOf("COPY pom.xml .");
        int sources = build.indexOf("COPY src ./src");
        assertTrue(pom > 0 && sources > pom, build.toString());
        List<String> dependencies = build.subList(pom + 1, sources);
        List<String> poms = dependencies.subList(0, dependencies.size() - 1);
        assertEquals(modules().stream().map(module -> "COPY " + module + "/pom.xml " + module + "/").toList(), poms,
                "the dependency layer copies every module's pom");
        assertEquals("RUN mvn -B -q -DskipTests -pl src/service -am package && rm -rf target src/*/target", dependencies.get(dependencies.size() - 1));
        assertEquals(List.of("RUN mvn -B -q -o -DskipTests -pl src/service -am package"), build.subList(sources + 1, build.size()));
        assertTrue(instructions().stream().noneMatch(line -> line.contains("go-offline")));
    }

    /** The reactor's modules, as the root pom lists them. */
    static List<String> modules() throws Exception {
        java.util.regex.Matcher module = java.util.regex.Pattern.compile("<module>([^<]+)</module>").matcher(Files.readString(Path.of("pom.xml")));
        List<String> modules = new java.util.ArrayList<>();
        while (module.find()) {
            modules.add(module.group(1));
        }
        return modules;
    }

    /** The instructions of the build stage, up to the runtime stage's FROM. */
    static List<String> buildStage() throws Exception {
        List<String> instructions = instructions();
        return instructions.subList(0, instructions.indexOf(instructions.stream()
                .filter(line -> line.startsWith("FROM eclipse-temurin")).findFirst().orElseThrow()));
    }

    /** OCI labels from build arguments declared in the runtime stage; the version defaults to the pom's, the rest come from the build command. */
    @Test
    void ociLabelsComeFromBuildArgumentsThatDefaultToThePom() throws Exception {
        List<String> instructions = instructions();
        List<String> runtime = instructions.subList(instructions.indexOf(instructions.stream()
                .filter(line -> line.startsWith("FROM eclipse-temurin")).findFirst().orElseThrow()), instructions.size());
        Map<String, String> args = new TreeMap<>();
        runtime.stream().filter(line -> line.startsWith("ARG ")).map(line -> line.substring(4).split("=", 2))
                .forEach(arg -> args.put(arg[0], arg.length > 1 ? arg[1] : ""));
        String pom = Files.readString(Path.of("pom.xml"));
        assertEquals(between(pom, "<artifactId>metahook-parent</artifactId>\n  <version>", "</version>"), args.get("VERSION"));
        assertEquals("", args.get("SOURCE"), "the repository comes from the clone being built, never a host written here");
        assertEquals(Set.of("VERSION", "SOURCE", "REVISION", "CREATED"), args.keySet());
        String labels = runtime.stream().filter(line -> line.startsWith("LABEL ")).findFirst().orElseThrow();
        for (var label : Map.of("version", "VERSION", "source", "SOURCE", "revision", "REVISION", "created", "CREATED").entrySet()) {
            assertTrue(labels.contains("org.opencontainers.image." + label.getKey() + "=\"${" + label.getValue() + "}\""), labels);
        }
    }

    private static String between(String text, String before, String after) {
        int start = text.indexOf(before);
        assertTrue(start >= 0, before);
        start += before.length();
        return text.substring(start, text.indexOf(after, start));
    }

    /**
     * The training run is src/image/train (exercised for real by ClassArchiveIT): it writes the archive
     * the entrypoint starts from, on a loopback port of its own, waits for /readyz, proves the archive with -Xshare:on.
     */
    @Test
    void theClassArchiveComesFromTheTrainingScriptAndIsProvedAtBuildTime() throws Exception {
        String archive = "/opt/metahook/metahook.jsa";
        assertTrue(all("RUN").contains("bash /tmp/training/train /opt/metahook/metahook.jar " + archive + " /tmp/training && rm -rf /tmp/training"),
                all("RUN").toString());
        assertTrue(all("COPY").stream().anyMatch(copy -> copy.startsWith("src/image/train ") && copy.endsWith(" /tmp/training/")
                && copy.contains("metacontroller/webapp-controller.yaml") && copy.contains("metacontroller/database-controller.yaml")
                && copy.contains("examples/webapp.yaml") && copy.contains("examples/database.yaml")), all("COPY").toString());
        String script = Files.readString(Path.of("src/image/train"));
        assertTrue(script.contains("-XX:ArchiveClassesAtExit=\"$archive\""));
        assertTrue(script.contains("-Xshare:on -XX:SharedArchiveFile=\"$archive\""));
        assertTrue(script.contains("HOST=127.0.0.1") && script.contains("port=${TRAINING_PORT:-18080}"));
        assertTrue(script.contains("GET /readyz"));
        assertTrue(!script.contains("sleep 5") && !script.contains("0.0.0.0"));
    }

    @Test
    void runsTheJarInExecFormAsTheNonRootUserTheDeploymentExpects() throws Exception {
        JsonNode entrypoint = Json.parse(all("ENTRYPOINT").get(0).getBytes());
        assertTrue(entrypoint.isArray(), "exec form");
        List<String> args = new ArrayList<>();
        entrypoint.forEach(arg -> args.add(arg.asText()));
        assertEquals("java", args.get(0));
        assertTrue(args.contains("-XX:MaxRAMPercentage=50.0"), "heap follows the container's memory limit, with room for the rest");
        assertTrue(args.contains("-XX:+UseSerialGC") && args.contains("-Xmn64m"),
                "the serial collector with a young generation sized for the hook's allocation from the start (docs/performance.md, run H)");
        assertTrue(args.contains("-XX:SharedArchiveFile=/opt/metahook/metahook.jsa"), "starts from the class archive");
        assertEquals("/opt/metahook/metahook.jar", args.get(args.indexOf("-jar") + 1));
        JsonNode pod = deployment().at("/spec/template/spec");
        String user = all("USER").get(0).split(":")[0];
        assertTrue(Integer.parseInt(user) > 0, "numeric, not root");
        assertEquals(pod.at("/securityContext/runAsUser").asText(), user);
        assertEquals(all("EXPOSE").get(0), pod.at("/containers/0/ports/0/containerPort").asText());
        assertTrue(Files.readString(Path.of(".dockerignore")).lines().anyMatch(line -> line.equals("target/")));
    }

    @Test
    void shutdownFitsTheGracePeriodAndTheHookTokenReachesTheServer() throws Exception {
        JsonNode pod = deployment().at("/spec/template/spec");
        JsonNode container = pod.at("/containers/0");
        int preStop = Integer.parseInt(container.at("/lifecycle/preStop/exec/command/1").asText());
        int shutdown = Integer.parseInt(env(container, "SHUTDOWN_TIMEOUT_SECONDS"));
        assertTrue(preStop + shutdown < pod.path("terminationGracePeriodSeconds").asInt(), "preStop and shutdown fit the grace period");
        String tokenFile = env(container, "AUTH_BEARER_TOKEN_FILE");
        JsonNode mount = null;
        for (JsonNode candidate : container.path("volumeMounts")) {
            if (tokenFile.startsWith(candidate.path("mountPath").asText() + "/")) {
                mount = candidate;
            }
        }
        assertTrue(mount != null, "the token file is on a mounted volume");
        String secret = null;
        for (JsonNode volume : pod.path("volumes")) {
            if (volume.path("name").asText().equals(mount.path("name").asText())) {
                secret = volume.at("/secret/secretName").asText();
            }
        }
        for (String controller : List.of("webapp", "database")) {
            JsonNode manifest = Json.parse(Json.mapper().writeValueAsBytes(
                    YAML.readTree(Path.of("metacontroller/" + controller + "-controller.yaml").toFile())));
            JsonNode auth = manifest.at("/spec/endpointConfigs/0/authorization");
            assertEquals(secret, auth.at("/secretRef/name").asText());
            assertEquals(tokenFile.substring(tokenFile.lastIndexOf('/') + 1), auth.at("/secretRef/key").asText());
            assertEquals("metahook.metahook-system", manifest.at("/spec/endpointConfigs/0/host").asText());
        }
    }

    /**
     * Every file the service reads at start (the *_FILE variables) is on a Secret volume that is not
     * optional: the service exits 2 when such a file is missing (DatabaseKeyTest), so an optional
     * Secret would only turn a pod waiting for its Secret into a CrashLoopBackOff.
     */
    @Test
    void everySecretTheServiceNeedsToStartIsRequired() throws Exception {
        JsonNode pod = deployment().at("/spec/template/spec");
        JsonNode container = pod.at("/containers/0");
        List<String> checked = new ArrayList<>();
        for (JsonNode variable : container.path("env")) {
            String name = variable.path("name").asText();
            if (!name.endsWith("_FILE")) {
                continue;
            }
            String file = variable.path("value").asText();
            String mount = null;
            for (JsonNode candidate : container.path("volumeMounts")) {
                if (file.startsWith(candidate.path("mountPath").asText() + "/")) {
                    mount = candidate.path("name").asText();
                }
            }
            assertTrue(mount != null, name + " is on a mounted volume");
            for (JsonNode volume : pod.path("volumes")) {
                if (volume.path("name").asText().equals(mount)) {
                    assertTrue(volume.path("secret").isObject(), name + " comes from a Secret");
                    assertTrue(!volume.at("/secret/optional").asBoolean(false), name + ": the Secret " + volume.at("/secret/secretName").asText()
                            + " is optional, but the service cannot start without it");
                    checked.add(name);
                }
            }
        }
        assertTrue(checked.contains("METAHOOK_DATABASE_KEY_FILE") && checked.contains("AUTH_BEARER_TOKEN_FILE"), checked.toString());
    }

    private static String env(JsonNode container, String name) {
        for (JsonNode variable : container.path("env")) {
            if (variable.path("name").asText().equals(name)) {
                return variable.path("value").asText();
            }
        }
        throw new AssertionError("no env " + name);
    }
}
