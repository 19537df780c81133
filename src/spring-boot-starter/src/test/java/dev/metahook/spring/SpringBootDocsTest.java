package dev.metahook.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The code docs/spring-boot.md and the README's "With Spring Boot" show is src/it/spring-boot's, file for file. */
class SpringBootDocsTest {
    /** Tests run in the repository's root directory (the parent pom's Surefire configuration). */
    private static final Path ROOT = Path.of("");
    private static final String TAG = "<!-- file: ";

    @Test
    void theDocsBlocksAreTheSpringBootApplicationsFiles() throws IOException {
        List<String> shown = new ArrayList<>();
        for (Path page : List.of(ROOT.resolve("docs/spring-boot.md"), ROOT.resolve("README.md"))) {
            List<String> lines = Files.readAllLines(page);
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).startsWith(TAG + "src/it/spring-boot/")) {
                    String file = lines.get(i).substring(TAG.length(), lines.get(i).length() - " -->".length());
                    assertEquals(Files.readString(ROOT.resolve(file)), block(lines, i + 1), page + ":" + (i + 1) + " differs from " + file);
                    shown.add(file);
                }
            }
        }
        assertEquals(List.of("src/it/spring-boot/src/main/java/example/WebAppApplication.java",
                "src/it/spring-boot/src/test/java/example/WebAppControllerTest.java",
                "src/it/spring-boot/src/main/java/example/WebAppApplication.java"), shown);
    }

    /** The fenced block that starts on this line, without its fences. */
    private static String block(List<String> lines, int fence) {
        StringBuilder text = new StringBuilder();
        for (int i = fence + 1; !lines.get(i).equals("```"); i++) {
            text.append(lines.get(i)).append('\n');
        }
        return text.toString();
    }
}
