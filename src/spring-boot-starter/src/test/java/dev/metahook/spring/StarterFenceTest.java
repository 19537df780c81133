package dev.metahook.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The starter's public types are the ones docs/public-api.md lists for it, all in dev.metahook.spring. */
class StarterFenceTest {

    @Test
    void thePublicTypesAreTheOnesThePageLists() throws IOException, ClassNotFoundException, URISyntaxException {
        Path classes = Path.of(MetahookProperties.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Set<String> types = new TreeSet<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = classes.relativize(file).toString().replace('/', '.').replaceFirst("\\.class$", "");
                Class<?> type = Class.forName(name, false, StarterFenceTest.class.getClassLoader());
                if (Modifier.isPublic(type.getModifiers()) && !name.endsWith("package-info")) {
                    types.add(name);
                }
            }
        }
        Set<String> listed = new TreeSet<>();
        Matcher listing = Pattern.compile("^- `(dev\\.metahook\\.spring\\.[\\w.$]*)`", Pattern.MULTILINE)
                .matcher(Files.readString(Path.of("docs/public-api.md")));
        while (listing.find()) {
            listed.add(listing.group(1));
        }
        assertEquals(listed, types);
    }
}
