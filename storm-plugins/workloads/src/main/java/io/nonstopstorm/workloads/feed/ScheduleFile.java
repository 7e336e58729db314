package io.nonstopstorm.workloads.feed;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

/**
 * A rate schedule kept in a file that may be edited while the topology runs: {@link #poll()}
 * returns the new schedule when the file's content changed and parses, else null. A bad edit is
 * reported (once) and the current schedule stays in force.
 */
public final class ScheduleFile {
    private final Path path;
    private FileTime lastModified;
    private RateSchedule current;
    private String problem;

    public ScheduleFile(Path path) {
        this.path = path;
    }

    /** Reads the file now; throws IllegalArgumentException with the file named if it is bad. */
    public RateSchedule load() {
        try {
            lastModified = Files.getLastModifiedTime(path);
            current = RateSchedule.parse(Files.readString(path, StandardCharsets.UTF_8));
            return current;
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read rate schedule " + path + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path + ": " + e.getMessage());
        }
    }

    /** The changed schedule, or null if unchanged, unreadable or bad (see {@link #takeProblem()}). */
    public RateSchedule poll() {
        try {
            FileTime m = Files.getLastModifiedTime(path);
            if (m.equals(lastModified)) {
                return null;
            }
            lastModified = m;
            RateSchedule next = RateSchedule.parse(Files.readString(path, StandardCharsets.UTF_8));
            if (next.equals(current)) {
                return null;
            }
            current = next;
            return next;
        } catch (IOException | IllegalArgumentException e) {
            problem = path + ": " + e.getMessage() + " (keeping the current schedule)";
            return null;
        }
    }

    /** A problem seen by the last poll, once; null otherwise. */
    public String takeProblem() {
        String p = problem;
        problem = null;
        return p;
    }
}
