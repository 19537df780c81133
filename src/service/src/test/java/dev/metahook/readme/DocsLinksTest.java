package dev.metahook.readme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of README.md and docs/*.md leads somewhere, docs/README.md lists every page, and no file of the
 * code, manifests, examples or build cites a docs/ page that is missing.
 */
class DocsLinksTest {
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
    private static final Pattern CITED_PAGE = Pattern.compile("(?<![\\w/.-])docs/([\\w-]+\\.md)");

    @Test
    void everyRelativeLinkPointsAtAnExistingFileAndHeading() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            List<String> lines = Snippets.lines(page);
            for (int i = 0; i < lines.size(); i++) {
                Matcher link = LINK.matcher(lines.get(i));
                while (link.find()) {
                    String problem = problem(page, link.group(1));
                    if (problem != null) {
                        broken.add(page + ":" + (i + 1) + ": " + link.group(1) + ": " + problem);
                    }
                }
            }
        }
        assertEquals(List.of(), broken);
    }

    @Test
    void nothingCitesAMissingDocsPage() throws IOException {
        TreeSet<String> missing = new TreeSet<>();
        int cited = 0;
        for (String root : List.of("src", "metacontroller", "examples", ".ci", "Dockerfile", "pom.xml")) {
            try (Stream<Path> tree = Files.walk(Path.of(root))) {
                for (Path file : tree.filter(Files::isRegularFile).filter(f -> !f.toString().contains("/target/")).filter(DocsLinksTest::isText).toList()) {
                    Matcher page = CITED_PAGE.matcher(Files.readString(file));
                    while (page.find()) {
                        cited++;
                        if (!Files.isRegularFile(Path.of("docs", page.group(1)))) {
                            missing.add(file + " cites docs/" + page.group(1));
                        }
                    }
                }
            }
        }
        assertTrue(cited > 0, "the code cites docs/ pages (the test would otherwise check nothing)");
        assertEquals(Set.of(), missing);
    }

    @Test
    void theIndexListsEveryPageOfDocs() throws IOException {
        Path index = Path.of("docs/README.md");
        TreeSet<String> listed = new TreeSet<>();
        Matcher link = LINK.matcher(Files.readString(index));
        while (link.find()) {
            listed.add(link.group(1).replaceFirst("#.*", ""));
        }
        TreeSet<String> missing = new TreeSet<>();
        for (Path page : pages()) {
            String name = page.getFileName().toString();
            if (page.startsWith("docs") && !page.equals(index) && !listed.contains(name)) {
                missing.add(name);
            }
        }
        assertEquals(Set.of(), missing, index + " lists every page of docs/");
    }

    @Test
    void headingsBecomeTheAnchorsGitHubMakes() {
        assertEquals("metacontroller-before-v416", anchor("Metacontroller before v4.16"));
        assertEquals("testing-hooks-without-a-cluster-render-and-check", anchor("Testing hooks without a cluster: `render` and `check`"));
        assertEquals("metacontrollers-examples-ported", anchor("Metacontroller's examples, ported"));
    }

    private static String problem(Path page, String target) {
        if (target.matches("^[a-z][a-z0-9+.-]*:.*")) {
            return null;
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path resolved = file.isEmpty() ? page : page.toAbsolutePath().getParent().resolve(file).normalize();
        if (!Files.exists(resolved)) {
            return "no such file";
        }
        if (hash < 0) {
            return null;
        }
        if (!resolved.toString().endsWith(".md")) {
            return "an anchor into a file that is not Markdown";
        }
        Set<String> anchors = anchors(resolved);
        return anchors.contains(target.substring(hash + 1)) ? null : "no such heading (there are " + anchors + ")";
    }

    private static Set<String> anchors(Path page) {
        Set<String> anchors = new TreeSet<>();
        boolean inCode = false;
        for (String line : Snippets.lines(page)) {
            if (line.startsWith("```")) {
                inCode = !inCode;
            } else if (!inCode && line.startsWith("#")) {
                anchors.add(anchor(line.replaceFirst("^#+\\s*", "")));
            }
        }
        return anchors;
    }

    /** GitHub's rule: lower case, punctuation dropped except hyphens and underscores, spaces to hyphens. */
    static String anchor(String heading) {
        return heading.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            pages.addAll(docs.filter(p -> p.toString().endsWith(".md")).sorted().collect(Collectors.toList()));
        }
        return pages;
    }

    private static boolean isText(Path file) {
        String name = file.getFileName().toString();
        return Stream.of(".java", ".md", ".yaml", ".yml", ".json", ".xml", ".properties", ".sh", ".txt").anyMatch(name::endsWith)
                || !name.contains(".");
    }
}
