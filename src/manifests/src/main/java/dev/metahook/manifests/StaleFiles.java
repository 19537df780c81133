package dev.metahook.manifests;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The generated files a directory holds that the last write did not write: a renamed registration's controller, a
 * format no longer asked for. They go, so that nothing applies or renders a controller the service no longer serves;
 * files without the generated mark in their first two lines (a JSON file's {@code "$comment"}) are someone's own
 * and stay.
 */
final class StaleFiles {
    private StaleFiles() {
    }

    /** Deletes the generated files under the directory that are not among {@code written}, then the directories that leaves empty. */
    static void delete(Path directory, Set<String> written) {
        try (Stream<Path> walk = Files.walk(directory)) {
            List<Path> stale = walk.filter(Files::isRegularFile)
                    .filter(file -> !written.contains(directory.relativize(file).toString().replace('\\', '/')))
                    .filter(StaleFiles::generated)
                    .toList();
            for (Path file : stale) {
                Files.delete(file);
                deleteEmptyParents(file.getParent(), directory);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the stale manifests from " + directory + ": " + e.getMessage(), e);
        }
    }

    private static boolean generated(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            String start = new String(in.readNBytes(2 * Manifests.MARK.length() + 64), StandardCharsets.UTF_8);
            return start.lines().limit(2).anyMatch(line -> line.contains(Manifests.MARK));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static void deleteEmptyParents(Path from, Path directory) throws IOException {
        for (Path parent = from; parent != null && !parent.equals(directory) && parent.startsWith(directory); parent = parent.getParent()) {
            try (Stream<Path> entries = Files.list(parent)) {
                if (entries.findAny().isPresent()) {
                    return;
                }
            }
            Files.delete(parent);
        }
    }
}
