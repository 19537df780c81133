package dev.metahook.readme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What a user reads (README.md, CHANGELOG.md, CONTRIBUTING.md and docs/) speaks of the project as it is, not of how
 * it was made: no numbers of this project's issues ("issue 38", "#36"), no benchmark run letters ("run H"), no work
 * sessions ("stop 39", "round 4", "this round"). A reference to another project's issue or pull request names that
 * project ({@code kubernetes/kubernetes#130989}, {@code metacontroller/metacontroller#533, #566}) and stays.
 */
class UserDocsWordingTest {
    /** A project's own reference: an issue or pull request by number, a run by letter, a session by number. */
    private static final List<Pattern> PROJECT_HISTORY = List.of(
            Pattern.compile("(?i)\\b(?:issues?|pull requests?|PRs?) #?\\d+"),
            Pattern.compile("(?<![\\w/.#-])#\\d+\\b"),
            Pattern.compile("\\b[Rr]uns? (?:\\[)?[A-Z]\\b(?![.'’-]\\w)"),
            Pattern.compile("\\b[Rr]ounds? \\d+\\b"),
            Pattern.compile("(?i)\\b(?:this|last|previous|next) round\\b"),
            Pattern.compile("\\b[Ss]tops? \\d+\\b(?! ?(?:s|ms|seconds?|minutes?)\\b)"));
    /** Another project's issue or pull request: owner/name#number, and the bare numbers listed after it on its line. */
    private static final Pattern UPSTREAM = Pattern.compile("\\b[\\w.-]+/[\\w.-]+#\\d+");

    @Test
    void noPageAUserReadsNamesTheProjectsIssuesRunsOrSessions() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path page : pages()) {
            List<String> lines = Snippets.lines(page);
            for (int i = 0; i < lines.size(); i++) {
                for (String reference : projectReferences(lines.get(i))) {
                    found.add(page + ":" + (i + 1) + ": " + reference);
                }
            }
        }
        assertEquals(List.of(), found, "what a user reads names this project's issues, runs or sessions");
    }

    @Test
    void tellsTheProjectsOwnReferencesFromOtherProjects() {
        assertEquals(List.of("issue 38"), projectReferences("| steady state (issue 38) | measured |"));
        assertEquals(List.of("Issue 28"), projectReferences("- **Issue 28's targets.**"));
        assertEquals(List.of("#36"), projectReferences("fixed in #36, see the design"));
        assertEquals(List.of("run H"), projectReferences("measured in run H on a quiet host"));
        assertEquals(List.of("runs [H"), projectReferences("(runs [H](performance.md) and [I])"));
        assertEquals(List.of("round 4"), projectReferences("## Performance round 4"));
        assertEquals(List.of("this round"), projectReferences("before this round's `-Xmn64m`"));
        assertEquals(List.of("stop 39"), projectReferences("as of stop 39"));
        assertEquals(List.of(), projectReferences("a bug of kubernetes/kubernetes#130989 keeps it"));
        assertEquals(List.of(), projectReferences("| metacontroller/metacontroller#472, #566 | Children |"));
        assertEquals(List.of(), projectReferences("| GoogleCloudPlatform/metacontroller#54, PR #55 | The 10 s timeout |"));
        assertEquals(List.of(), projectReferences("PKCS#8, PKCS#1 or SEC1 keys"));
        assertEquals(List.of(), projectReferences("3 interleaved rounds of 10 s; the rounds' medians"));
        assertEquals(List.of(), projectReferences("run `bash src/bench/run` and read the `Go hook` row"));
        assertEquals(List.of(), projectReferences("[Run it](#run-it) with `java -jar`"));
    }

    /** The project's own references on one line, those of other projects left out. */
    static List<String> projectReferences(String line) {
        boolean upstream = UPSTREAM.matcher(line).find();
        List<String> found = new ArrayList<>();
        for (Pattern pattern : PROJECT_HISTORY) {
            Matcher match = pattern.matcher(line);
            while (match.find()) {
                if (!(upstream && isUpstreamNumber(line, match))) {
                    found.add(match.group());
                }
            }
        }
        return found;
    }

    /** On a line that cites another project's issue, a bare number or "PR #n" after it continues that citation. */
    private static boolean isUpstreamNumber(String line, Matcher match) {
        Matcher upstream = UPSTREAM.matcher(line);
        return upstream.find() && upstream.start() < match.start() && match.group().matches("(?i)(?:(?:issues?|PRs?|pull requests?) )?#\\d+");
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(Path.of("README.md"), Path.of("CHANGELOG.md"), Path.of("CONTRIBUTING.md")));
        try (Stream<Path> docs = Files.walk(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        assertTrue(pages.stream().allMatch(Files::isRegularFile), "the pages a user reads are there: " + pages);
        return pages;
    }
}
