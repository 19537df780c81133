package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every option {@code render --help} and {@code check --help} offer is explained in docs/testing-hooks.md. */
class TestingHooksOptionsTest {
    private static final Path PAGE = Path.of("docs/testing-hooks.md");
    private static final Pattern OPTION = Pattern.compile("--[a-z][a-z-]*");

    @Test
    void everyCheckOptionIsExplained() throws IOException {
        assertEquals(List.of(), unexplained(CheckCommand.USAGE), "options of check that docs/testing-hooks.md never names");
    }

    @Test
    void everyRenderOptionIsExplained() throws IOException {
        assertEquals(List.of(), unexplained(RenderCommand.USAGE), "options of render that docs/testing-hooks.md never names");
    }

    private static List<String> unexplained(String usage) throws IOException {
        String page = Files.readString(PAGE);
        List<String> missing = new ArrayList<>();
        Matcher option = OPTION.matcher(usage);
        while (option.find()) {
            if (!Pattern.compile("(?<![a-z-])" + option.group() + "(?![a-z-])").matcher(page).find() && !missing.contains(option.group())) {
                missing.add(option.group());
            }
        }
        return missing;
    }
}
