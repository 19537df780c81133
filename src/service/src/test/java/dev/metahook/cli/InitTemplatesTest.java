package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README's "Write a controller" is the path {@code init} makes: it starts with the command, and every file it
 * shows is one the command writes, byte for byte with the defaults (so the templates and the README, and
 * through ReadmeSnippetsTest src/it/consumer, cannot drift apart).
 */
class InitTemplatesTest {
    private static final Path README = Path.of("README.md");
    private static final String SHOWN = "src/it/consumer/";
    private static final Pattern TAG = Pattern.compile("^<!-- file: " + Pattern.quote(SHOWN) + "(\\S+) -->$");
    private static final Pattern INIT = Pattern.compile("^java -jar target/metahook\\.jar init (.+)$");
    private static final Pattern MANIFESTS = Pattern.compile("^mvn -q package -Dmetahook\\.image=\\S+$");

    @TempDir
    Path temp;

    @Test
    void everyFileTheSectionShowsIsOneInitWritesWithTheDefaults() {
        Map<Path, String> written = InitCommand.render(defaults());
        // The controller itself is shown at the README's top, which the section points to.
        Map<String, String> shown = taggedBlocks(readme());
        assertTrue(shown.size() >= 5, "the section shows the project's files: " + shown.keySet());
        for (Map.Entry<String, String> block : shown.entrySet()) {
            String file = written.get(Path.of(block.getKey()));
            assertTrue(file != null, "README shows " + SHOWN + block.getKey() + ", which init does not write");
            assertEquals(block.getValue(), file, "README's " + SHOWN + block.getKey()
                    + " and init's template differ: bash src/it/init/templates-from-readme rewrites the templates from README");
        }
        Set<String> sources = new TreeSet<>();
        written.keySet().stream().map(Path::toString).filter(p -> p.endsWith(".java") || p.endsWith(".yaml")).forEach(sources::add);
        assertEquals(sources, new TreeSet<>(shown.keySet()), "the sources init writes are the ones README shows");
    }

    @Test
    void theSectionStartsWithTheInitCommandAndItWritesTheProjectTheSectionBuilds() throws IOException {
        List<String> section = section();
        int command = indexOf(section, INIT);
        int firstFile = indexOf(section, TAG);
        assertTrue(command >= 0, "\"Write a controller\" gives the init command");
        assertTrue(command < firstFile, "the init command comes before the first file the section shows");
        assertTrue(section.subList(0, command).stream().filter(l -> l.startsWith("```")).count() == 1,
                "the init command is in the section's first code block");
        List<String> args = new ArrayList<>(Arrays.asList(INIT.matcher(section.get(command)).replaceFirst("$1").split(" ")));
        String directory = args.get(0);
        assertEquals("cd " + directory, section.get(command + 1), "the next line enters the project");
        assertEquals("mvn verify", section.get(command + 2));
        args.set(0, temp.resolve("project").toString());
        args.addAll(List.of("--metahook-version", "0.1.0-SNAPSHOT"));
        assertEquals(0, InitCommand.run(args, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));

        // The manifests step the section shows is the project's build with the image named: the pom runs the plugin.
        assertTrue(indexOf(section, MANIFESTS) > firstFile, "the section gives the manifests step after the files");
        String pom = Files.readString(temp.resolve("project/pom.xml"));
        assertTrue(pom.contains("<image>${metahook.image}</image>"), "the plugin writes the manifests for -Dmetahook.image");
    }

    /** Every XML block the section shows is an excerpt of the pom init writes, indentation aside. */
    @Test
    void everyXmlBlockOfTheSectionIsPartOfThePomInitWrites() {
        String pom = InitCommand.render(defaults()).get(Path.of("pom.xml"));
        List<String> section = section();
        int blocks = 0;
        for (int i = 0; i < section.size(); i++) {
            if (section.get(i).equals("```xml")) {
                List<String> block = new ArrayList<>();
                for (int line = i + 1; !section.get(line).equals("```"); line++) {
                    block.add(section.get(line).strip());
                }
                String flat = String.join("\n", block);
                String flatPom = pom.lines().map(String::strip).reduce((a, b) -> a + "\n" + b).orElseThrow();
                assertTrue(flatPom.contains(flat), "README's XML block is not in init's pom:\n" + flat);
                blocks++;
            }
        }
        assertTrue(blocks >= 3, "the section shows the BOM, the dependencies and the plugin: " + blocks + " XML blocks");
    }

    /** src/it/consumer's pom is the one init writes, with the consumer's groupId and its own header. */
    @Test
    void theConsumersPomIsThePomInitWrites() throws IOException {
        String init = InitCommand.render(new InitCommand.Project("com.example", InitCommand.DEFAULT_PACKAGE, InitCommand.DEFAULT_NAME,
                "0.1.0-SNAPSHOT")).get(Path.of("pom.xml"));
        String consumer = Files.readString(Path.of(SHOWN + "pom.xml"));
        assertEquals(afterHeader(init), afterHeader(consumer));
    }

    private static String afterHeader(String pom) {
        return pom.substring(pom.indexOf("<project "));
    }

    private static InitCommand.Project defaults() {
        return new InitCommand.Project(InitCommand.DEFAULT_GROUP, InitCommand.DEFAULT_PACKAGE, InitCommand.DEFAULT_NAME, "0.1.0-SNAPSHOT");
    }

    private static List<String> readme() {
        try {
            return Files.readAllLines(README);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** The lines of README's "Write a controller", up to the next section. */
    private static List<String> section() {
        List<String> lines = readme();
        int start = lines.indexOf("## Write a controller");
        assertTrue(start >= 0, "README has \"Write a controller\"");
        int end = start + 1;
        while (end < lines.size() && !lines.get(end).startsWith("## ")) {
            end++;
        }
        return lines.subList(start + 1, end);
    }

    /** The blocks tagged {@code <!-- file: src/it/consumer/PATH -->}, by PATH. */
    private static Map<String, String> taggedBlocks(List<String> lines) {
        Map<String, String> blocks = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher tag = TAG.matcher(lines.get(i));
            if (tag.matches()) {
                StringBuilder text = new StringBuilder();
                int line = i + 2;
                while (!lines.get(line).equals("```")) {
                    text.append(lines.get(line++)).append('\n');
                }
                blocks.put(tag.group(1), text.toString());
            }
        }
        return blocks;
    }

    private static int indexOf(List<String> lines, Pattern pattern) {
        for (int i = 0; i < lines.size(); i++) {
            if (pattern.matcher(lines.get(i)).matches()) {
                return i;
            }
        }
        return -1;
    }
}
