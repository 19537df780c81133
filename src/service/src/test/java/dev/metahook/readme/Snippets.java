package dev.metahook.readme;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tagged code blocks of a Markdown page. {@code <!-- file: PATH -->} right before a fenced block says the block
 * is the file PATH of this repository; {@code <!-- compiled -->} says it is a whole Java source file that is
 * compiled and served beside them.
 */
record Snippets(Path page, List<Snippet> all) {

    /** One tagged block: the file it is ({@code null} for a compiled-only block), its language and its text. */
    record Snippet(Path page, int line, String file, String language, String text) {
        String where() {
            return page + ":" + line;
        }
    }

    private static final Pattern TAG = Pattern.compile("^<!-- (?:file: (\\S+)|(compiled)) -->$");

    static Snippets of(Path page) {
        List<String> lines = lines(page);
        List<Snippet> found = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher tag = TAG.matcher(lines.get(i));
            if (tag.matches()) {
                found.add(block(page, lines, i, tag.group(1)));
            }
        }
        return new Snippets(page, List.copyOf(found));
    }

    private static Snippet block(Path page, List<String> lines, int tagLine, String file) {
        String fence = tagLine + 1 < lines.size() ? lines.get(tagLine + 1) : "";
        if (!fence.startsWith("```") || fence.length() == 3) {
            throw new AssertionError(page + ":" + (tagLine + 1) + ": a tag must stand right before a fenced block with a language");
        }
        StringBuilder text = new StringBuilder();
        for (int i = tagLine + 2; i < lines.size(); i++) {
            if (lines.get(i).equals("```")) {
                return new Snippet(page, tagLine + 1, file, fence.substring(3), text.toString());
            }
            text.append(lines.get(i)).append('\n');
        }
        throw new AssertionError(page + ":" + (tagLine + 1) + ": the block never closes");
    }

    static List<String> lines(Path page) {
        try {
            return Files.readAllLines(page);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
