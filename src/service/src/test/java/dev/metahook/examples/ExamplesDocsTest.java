package dev.metahook.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * docs/examples.md's table of where a port differs from its original is the set of tests that assert it: every row
 * names a test of its example tagged {@code differs}, and every such test has a row (issue 37: the table missed three
 * behaviours the differential shows and had one row wrong).
 */
class ExamplesDocsTest {
    private static final Path PAGE = Path.of("docs/examples.md");
    private static final Path TESTS = Path.of("src/service/src/test/java/dev/metahook/examples");
    private static final Pattern ROW = Pattern.compile("^\\| ([a-z-]+) \\|.*\\| `(\\w+)#(\\w+)` \\|$");

    @Test
    void everyRowOfTheDifferencesIsATestTaggedDiffersAndEveryOneHasARow() throws Exception {
        List<String> lines = Files.readAllLines(PAGE);
        int start = lines.indexOf("## Where a port differs from its original");
        assertTrue(start > 0, PAGE + " has the section");
        TreeSet<String> rows = new TreeSet<>();
        for (String line : lines.subList(start, lines.size())) {
            if (line.startsWith("| ") && !line.startsWith("| example ") && !line.startsWith("|---")) {
                Matcher row = ROW.matcher(line);
                assertTrue(row.matches(), "a row that names no test (`Class#method` in its last column): " + line);
                String test = row.group(1).replace("-", "") + "." + row.group(2) + "#" + row.group(3);
                Method method = method(test);
                assertTrue(method.isAnnotationPresent(Test.class) && tagged(method), test + " is a @Test tagged differs");
                rows.add(test);
            } else if (line.startsWith("## ") && !rows.isEmpty()) {
                break;
            }
        }
        assertEquals(tagged(), rows, "the tests tagged differs and the rows of " + PAGE);
    }

    private static Method method(String test) throws ClassNotFoundException {
        String type = "dev.metahook.examples." + test.substring(0, test.indexOf('#'));
        String name = test.substring(test.indexOf('#') + 1);
        for (Method method : Class.forName(type).getDeclaredMethods()) {
            if (method.getName().equals(name)) {
                return method;
            }
        }
        throw new AssertionError(type + " has no test " + name);
    }

    private static boolean tagged(Method method) {
        Tag tag = method.getAnnotation(Tag.class);
        return tag != null && tag.value().equals("differs");
    }

    /** Every test method of the examples' test classes tagged differs, as package.Class#method. */
    private static TreeSet<String> tagged() throws IOException, ClassNotFoundException {
        TreeSet<String> all = new TreeSet<>();
        List<Path> sources = new ArrayList<>();
        try (Stream<Path> tree = Files.walk(TESTS)) {
            tree.filter(path -> path.toString().endsWith("Test.java") && path.getParent().getParent().equals(TESTS)).forEach(sources::add);
        }
        for (Path source : sources) {
            String type = source.getParent().getFileName() + "." + source.getFileName().toString().replace(".java", "");
            for (Method method : Class.forName("dev.metahook.examples." + type).getDeclaredMethods()) {
                if (tagged(method)) {
                    all.add(type + "#" + method.getName());
                }
            }
        }
        return all;
    }
}
