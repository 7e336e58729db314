package io.nonstopstorm.migration.plan;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * A short digest of where every executor of a topology runs. Kept per topology in the node's plan
 * store, so a worker notices a move between *other* workers and refreshes its connections at once.
 */
public final class AssignmentFingerprint {
    private AssignmentFingerprint() {
    }

    /** @param placement executor to "node:port" */
    public static String of(Map<ExecutorRange, String> placement) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<ExecutorRange, String> e : new TreeMap<>(placement).entrySet()) {
            sb.append(e.getKey()).append('=').append(e.getValue()).append(';');
        }
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(sb.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
