package io.nonstopstorm.workloads;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.storm.StormSubmitter;
import org.apache.storm.generated.StormTopology;

/**
 * Submits a named workload to the cluster named by storm.yaml on the classpath (run with
 * -Dstorm.jar=&lt;this jar&gt;). Usage: SubmitTopology TOPOLOGY_NAME WORKLOAD [key=value ...].
 * Values are parsed as YAML scalars, so numbers and booleans keep their types.
 * Exit codes: 0 submitted, 2 bad arguments, 3 rejected by Nimbus.
 */
public final class SubmitTopology {
    private SubmitTopology() {
    }

    public static void main(String[] args) {
        if (args.length < 2) {
            System.err.println("usage: SubmitTopology TOPOLOGY_NAME WORKLOAD [key=value ...]; workloads: "
                + Workloads.descriptions().keySet());
            System.exit(2);
        }
        String topologyName = args[0];
        Optional<Workload> workload = Workloads.byName(args[1]);
        if (workload.isEmpty()) {
            System.err.println("unknown workload '" + args[1] + "'; known: " + Workloads.descriptions().keySet());
            System.exit(2);
        }
        Map<String, Object> conf = new HashMap<>(workload.get().defaults());
        try {
            conf.putAll(Settings.parse(java.util.Arrays.asList(args).subList(2, args.length)));
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
        }
        StormTopology topology;
        try {
            topology = workload.get().build(conf);
        } catch (IllegalArgumentException e) {
            System.err.println("workload '" + args[1] + "': " + e.getMessage());
            System.exit(2);
            return;
        }
        try {
            StormSubmitter.submitTopology(topologyName, conf, topology);
        } catch (Exception e) {
            System.err.println("Nimbus rejected topology '" + topologyName + "': " + rootMessage(e));
            System.exit(3);
        }
        System.out.println("submitted " + topologyName);
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return e == t ? e.toString() : e + " (cause: " + t + ")";
    }
}
