package io.nonstopstorm.migration.verify;

import java.util.Set;
import java.util.TreeSet;

/**
 * The Storm versions the agent was tested against: migration runs on these without an override. The one
 * list of them; a version is added here once the migration integration tests pass on it
 * (2.7.1 and 2.6.4: tests/integration/test_storm_versions.py, live moves on a cluster of each).
 */
public final class VerifiedStormVersions {
    private static final Set<String> VERIFIED = Set.of("2.8.3", "2.7.1", "2.6.4");

    private VerifiedStormVersions() {
    }

    public static boolean contains(String stormVersion) {
        return stormVersion != null && VERIFIED.contains(stormVersion.trim());
    }

    /** Sorted, for messages. */
    public static Set<String> all() {
        return new TreeSet<>(VERIFIED);
    }
}
