package io.nonstopstorm.migration.plan;

import io.nonstopstorm.wire.ExecutorId;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.storm.generated.NodeInfo;

/**
 * A short digest of where every executor of a topology runs. Kept per topology in the node's plan
 * store, so a worker notices a move between *other* workers and refreshes its connections at once.
 */
public final class AssignmentFingerprint {
    private AssignmentFingerprint() {
    }

    /** The fingerprint of Storm's executor placement ({@code Assignment.get_executor_node_port()}). */
    public static String ofAssignment(Map<List<Long>, NodeInfo> executorNodePort) {
        Map<ExecutorId, String> placement = new HashMap<>();
        for (Map.Entry<List<Long>, NodeInfo> e : executorNodePort.entrySet()) {
            placement.put(ExecutorId.fromStorm(e.getKey()), e.getValue().get_node() + ":" + e.getValue().get_port());
        }
        return of(placement);
    }

    /** @param placement executor to "node:port" */
    public static String of(Map<ExecutorId, String> placement) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<ExecutorId, String> e : new TreeMap<>(placement).entrySet()) {
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
