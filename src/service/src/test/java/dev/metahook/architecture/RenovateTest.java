package dev.metahook.architecture;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Renovate watches every file that pins a version: each pom (and the init template's) and each Dockerfile of the repository. */
class RenovateTest {
    @Test
    void everyPomAndDockerfileIsWatched() throws IOException {
        JsonNode config = new ObjectMapper().readTree(Path.of(".github/renovate.json").toFile());
        List<Pattern> maven = patterns(config.at("/maven/fileMatch"));
        List<Pattern> docker = patterns(config.at("/dockerfile/fileMatch"));
        List<String> unwatched = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("."))) {
            for (Path file : files.filter(Files::isRegularFile).filter(f -> !f.toString().contains("/target/") && !f.toString().contains("/.git/")).toList()) {
                String name = file.getFileName().toString();
                String path = Path.of(".").relativize(file).toString();
                if ((name.equals("pom.xml") || name.equals("pom.xml.tmpl")) && maven.stream().noneMatch(p -> p.matcher(path).find())
                        || name.startsWith("Dockerfile") && docker.stream().noneMatch(p -> p.matcher(path).find())) {
                    unwatched.add(path);
                }
            }
        }
        assertTrue(unwatched.isEmpty(), "Renovate does not watch " + unwatched);
    }

    private static List<Pattern> patterns(JsonNode list) {
        List<Pattern> patterns = new ArrayList<>();
        list.forEach(entry -> patterns.add(Pattern.compile(entry.asText())));
        assertTrue(!patterns.isEmpty(), "fileMatch is set");
        return patterns;
    }
}
