package dev.metahook.readme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The pages a user reads first stay short enough to be read: the README under 1,500 words (code included) and the
 * performance page under 2,500 (its history lives in git). Words are counted as {@code wc -w} counts them: runs of
 * characters between ASCII white space.
 */
class UserDocsLengthTest {
    private static final Map<Path, Integer> LIMITS = limits();

    @Test
    void theFirstPagesAUserReadsStayUnderTheirWordLimits() throws IOException {
        Map<String, String> over = new LinkedHashMap<>();
        for (Map.Entry<Path, Integer> page : LIMITS.entrySet()) {
            int words = words(Files.readString(page.getKey()));
            if (words >= page.getValue()) {
                over.put(page.getKey().toString(), words + " words, the limit is under " + page.getValue());
            }
        }
        assertEquals(Map.of(), over);
    }

    @Test
    void countsWordsAsWcDoes() {
        assertEquals(0, words(""));
        assertEquals(4, words("  one two\n\tthree `four`\n"));
        assertEquals(3, words("`mvn -B verify`"));
    }

    static int words(String text) {
        int words = 0;
        boolean inWord = false;
        for (int i = 0; i < text.length(); i++) {
            boolean space = List.of(' ', '\t', '\n', '\r', '\f', '\u000b').contains(text.charAt(i));
            if (!space && !inWord) {
                words++;
            }
            inWord = !space;
        }
        return words;
    }

    private static Map<Path, Integer> limits() {
        Map<Path, Integer> limits = new LinkedHashMap<>();
        limits.put(Path.of("README.md"), 1_500);
        limits.put(Path.of("docs/performance.md"), 2_500);
        return limits;
    }
}
