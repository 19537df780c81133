package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahook.wire.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What can be checked of the image without a Docker engine: its stages, user, entrypoint and port
 * agree with the jar the build makes and with the Deployment that runs it; shutdown fits the grace period.
 */
class ContainerTest {
    private static final YAMLMapper YAML = new YAMLMapper();

    private static List<String> instructions() throws Exception {
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
        assertTrue(Files.readString(Path.of("pom.xml")).contains("<outputFile>${project.build.directory}/metahook.jar</outputFile>"),
                "the shaded service jar is target/metahook.jar");
        assertTrue(all("COPY").contains("--from=build /src/target/metahook.jar /opt/metahook/metahook.jar"), all("COPY").toString());
        assertTrue(all("LABEL").get(0).contains("org.opencontainers.image.title=\"metahook\""));
    }

    @Test
    void runsTheJarInExecFormAsTheNonRootUserTheDeploymentExpects() throws Exception {
        JsonNode entrypoint = Json.parse(all("ENTRYPOINT").get(0).getBytes());
        assertTrue(entrypoint.isArray(), "exec form");
        List<String> args = new ArrayList<>();
        entrypoint.forEach(arg -> args.add(arg.asText()));
        assertEquals("java", args.get(0));
        assertTrue(args.contains("-XX:MaxRAMPercentage=75.0"), "heap follows the container's memory limit");
        assertTrue(args.contains("-XX:SharedArchiveFile=/opt/metahook/metahook.jsa"), "starts from the class archive");
        assertTrue(all("RUN").stream().anyMatch(run -> run.contains("-XX:ArchiveClassesAtExit=/opt/metahook/metahook.jsa")
                && run.contains("check")), "the archive comes from a training run of the service");
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

    private static String env(JsonNode container, String name) {
        for (JsonNode variable : container.path("env")) {
            if (variable.path("name").asText().equals(name)) {
                return variable.path("value").asText();
            }
        }
        throw new AssertionError("no env " + name);
    }
}
