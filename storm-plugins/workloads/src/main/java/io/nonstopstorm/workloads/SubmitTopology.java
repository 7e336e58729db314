package io.nonstopstorm.workloads;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.storm.StormSubmitter;
import org.apache.storm.generated.StormTopology;

/**
 * Submits a named workload to the cluster named by storm.yaml on the classpath (run with
 * -Dstorm.jar=&lt;this jar&gt;). Usage: SubmitTopology TOPOLOGY_NAME WORKLOAD [key=value ...], or
 * SubmitTopology --list (one "name TAB description" line per workload).
 * Values are parsed as YAML scalars, so numbers and booleans keep their types.
 * Exit codes: 0 submitted, 2 bad arguments, 3 rejected by Nimbus.
 */
public final class SubmitTopology {
    private SubmitTopology() {
    }

    public static void main(String[] args) {
        if (args.length == 1 && args[0].equals("--list")) {
            Workloads.descriptions().forEach((name, description) -> System.out.println(name + "\t" + description));
            return;
        }
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
        Map<String, Object> conf = new HashMap<>();
        StormTopology topology;
        try {
            Map<String, Object> settings = Settings.parse(java.util.Arrays.asList(args).subList(2, args.length));
            conf.putAll(workload.get().defaultsFor(settings));
            conf.putAll(settings);
            topology = workload.get().build(conf);
        } catch (IllegalArgumentException e) {
            System.err.println("workload '" + args[1] + "': " + e.getMessage());
            System.exit(2);
            return;
        } catch (RuntimeException e) {
            // e.g. Storm's own checks in createTopology (a non-serializable field names its component)
            e.printStackTrace();
            System.err.println("workload '" + args[1] + "' cannot be built: " + rootMessage(e));
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
