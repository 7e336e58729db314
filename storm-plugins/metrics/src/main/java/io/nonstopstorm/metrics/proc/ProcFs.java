package io.nonstopstorm.metrics.proc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads files under a /proc root. The root is a parameter so tests can use a fake tree; a file that
 * vanished (a thread or process that ended) reads as empty, never as an error.
 */
public final class ProcFs {
    private final Path root;

    public ProcFs(Path root) {
        this.root = root;
    }

    public static ProcFs system() {
        return new ProcFs(Path.of("/proc"));
    }

    public Optional<String> read(String relative) {
        try {
            return Optional.of(Files.readString(root.resolve(relative), StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    public List<String> list(String relative) {
        List<String> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(root.resolve(relative))) {
            for (Path p : ds) {
                out.add(p.getFileName().toString());
            }
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
        return out;
    }
}
