package io.nonstopstorm.grouping.sim;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.nonstopstorm.grouping.signal.DelegationPolicy;
import io.nonstopstorm.grouping.core.GroupingDefaults;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Command line of the grouping simulator: builds a key trace (Zipf or a file), a capacity plan and a
 * configuration, simulates each requested scheme on the same trace, and writes one JSON document
 * ({@code config}, {@code trace}, {@code runs[]} each with {@code summary} and {@code series}).
 * Exit codes: 0 ok, 2 bad arguments, 1 I/O failure.
 */
@Command(name = "simulate-grouping", mixinStandardHelpOptions = true,
        description = "Simulate stream groupings (KG, SG, PKG, PoTC, CH, PoRC, CG) on a keyed stream and write JSON.")
public final class SimulateGrouping implements Callable<Integer> {

    @Option(names = "--output", required = true, description = "JSON file to write.")
    Path output;

    @Option(names = "--schemes", split = ",", defaultValue = "kg,sg,pkg,potc,ch,porc,cg",
            description = "Comma-separated schemes (default: ${DEFAULT-VALUE}).")
    List<String> schemes;

    @Option(names = "--messages", defaultValue = "1000000", description = "Messages to simulate (default: ${DEFAULT-VALUE}); with --keys-file, at most this many lines.")
    int messages;

    @Option(names = "--keys-file", description = "Text file of keys, one per line (instead of Zipf).")
    Path keysFile;

    @Option(names = "--zipf-exponent", defaultValue = "1.0", description = "Zipf exponent, 0.5..2.0 in the paper's range (default: ${DEFAULT-VALUE}).")
    double zipfExponent;

    @Option(names = "--keys", defaultValue = "10000", description = "Distinct Zipf ranks (default: ${DEFAULT-VALUE}).")
    int keys;

    @Option(names = "--workers", defaultValue = "10", description = "Workers W (default: ${DEFAULT-VALUE}); ignored with --capacities.")
    int workers;

    @Option(names = "--sources", defaultValue = "5", description = "Sources S (default: ${DEFAULT-VALUE}).")
    int sources;

    @Option(names = "--capacities", split = ",", description = "Relative capacity per worker, e.g. 2,1,1,1 (sets W).")
    double[] capacities;

    @Option(names = "--strong-workers", defaultValue = "0", description = "Heterogeneous: this many workers are --strong-factor times stronger (default: ${DEFAULT-VALUE}).")
    int strongWorkers;

    @Option(names = "--strong-factor", defaultValue = "2.0", description = "Capacity factor of strong workers (default: ${DEFAULT-VALUE}).")
    double strongFactor;

    @Option(names = "--capacity-change", description = "AT=c1,c2,...: from message AT on, relative capacities become c1..cW. Repeatable.")
    List<String> capacityChanges = new ArrayList<>();

    @Option(names = "--load", defaultValue = "0.8", description = "Target mean utilisation under proportional routing (default: ${DEFAULT-VALUE}).")
    double load;

    @Option(names = "--epsilon", defaultValue = "" + GroupingDefaults.EPSILON, description = "Imbalance factor of PoRC/CH/CG (default: ${DEFAULT-VALUE}).")
    double epsilon;

    @Option(names = "--virtual-workers", defaultValue = "" + GroupingDefaults.VIRTUAL_WORKERS_PER_WORKER, description = "CG virtual workers per worker (default: ${DEFAULT-VALUE}).")
    int virtualWorkers;

    @Option(names = "--ring-copies", defaultValue = "" + GroupingDefaults.RING_COPIES_PER_WORKER, description = "CH ring points per worker (default: ${DEFAULT-VALUE}).")
    int ringCopies;

    @Option(names = "--idle-below", defaultValue = "" + DelegationPolicy.DEFAULT_IDLE_BELOW, description = "CG: signal INCREASE below this slot utilisation (default: ${DEFAULT-VALUE}).")
    double idleBelow;

    @Option(names = "--busy-above", defaultValue = "" + DelegationPolicy.DEFAULT_BUSY_ABOVE, description = "CG: signal DECREASE above this slot utilisation (default: ${DEFAULT-VALUE}).")
    double busyAbove;

    @Option(names = "--time-slot", description = "CG time slot in ticks (default: 500 x workers, about 500 messages per worker per slot).")
    Long timeSlot;

    @Option(names = "--signal-delivery", defaultValue = "piggyback", description = "piggyback (on acks, per source) or immediate (default: ${DEFAULT-VALUE}).")
    String signalDelivery;

    @Option(names = "--aggregation-period", defaultValue = "10000", description = "Ticks between periodic aggregations (default: ${DEFAULT-VALUE}).")
    long aggregationPeriod;

    @Option(names = "--samples", defaultValue = "200", description = "Time-series windows over the stream (default: ${DEFAULT-VALUE}).")
    int samples;

    @Option(names = "--seed", defaultValue = "42", description = "Seed of the key stream, hashing and randomness (default: ${DEFAULT-VALUE}).")
    long seed;

    private final PrintStream out;

    SimulateGrouping(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the command; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        CommandLine cli = new CommandLine(new SimulateGrouping(out));
        cli.setOut(new java.io.PrintWriter(out, true));
        cli.setErr(new java.io.PrintWriter(err, true));
        cli.setExecutionExceptionHandler((e, line, parsed) -> {
            if (e instanceof IllegalArgumentException) {
                err.println("error: " + e.getMessage());
                return 2;
            }
            if (e instanceof IOException) {
                err.println("error: " + e);
                return 1;
            }
            throw e;
        });
        return cli.execute(args);
    }

    @Override
    public Integer call() throws IOException {
        List<Scheme> chosen = schemes.stream().map(Scheme::parse).distinct().toList();
        KeyTrace trace = keysFile != null ? KeyTrace.file(keysFile, messages)
                : KeyTrace.zipf(messages, keys, zipfExponent, seed);
        CapacityPlan plan = capacityPlan();
        if (samples <= 0) {
            throw new IllegalArgumentException("--samples must be positive, got " + samples);
        }
        long slot = timeSlot != null ? timeSlot : 500L * plan.workers();
        boolean piggyback = switch (signalDelivery.toLowerCase(Locale.ROOT)) {
            case "piggyback" -> true;
            case "immediate" -> false;
            default -> throw new IllegalArgumentException("--signal-delivery must be piggyback or immediate, got " + signalDelivery);
        };
        SimulationConfig config = new SimulationConfig(sources, plan, load, epsilon, virtualWorkers, ringCopies,
                new DelegationPolicy(idleBelow, busyAbove, slot), piggyback, aggregationPeriod,
                Math.max(1, (long) Math.ceil(trace.messages() / (double) samples)), seed);

        Simulation simulation = new Simulation(config, trace);
        List<RunResult> runs = new ArrayList<>();
        for (Scheme scheme : chosen) {
            RunResult result = simulation.run(scheme);
            runs.add(result);
            RunResult.Summary s = result.summary();
            out.printf(Locale.ROOT, "%-5s imbalance mean %.4f (2nd half %.4f)  memory %.3f x keys  latency mean %.1f p99 %d  queue max %d%n",
                    result.scheme(), s.imbalanceMean(), s.imbalanceMeanSecondHalf(), s.memoryNormalised(),
                    s.latencyMean(), s.latencyP99(), s.queueMax());
        }
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("config", config);
        Map<String, Object> traceInfo = new LinkedHashMap<>();
        traceInfo.put("description", trace.description());
        traceInfo.put("messages", trace.messages());
        traceInfo.put("distinct_keys", trace.distinctKeys());
        traceInfo.put("top_key_share", trace.topKeyShare());
        document.put("trace", traceInfo);
        document.put("runs", runs);
        writeJson(output, document);
        out.println("wrote " + output);
        return 0;
    }

    private CapacityPlan capacityPlan() {
        CapacityPlan plan;
        if (capacities != null) {
            plan = new CapacityPlan(capacities, List.of());
        } else {
            if (workers <= 0) {
                throw new IllegalArgumentException("--workers must be positive, got " + workers);
            }
            plan = strongWorkers > 0 ? CapacityPlan.heterogeneous(workers, strongWorkers, strongFactor)
                    : CapacityPlan.homogeneous(workers);
        }
        for (String change : capacityChanges) {
            int eq = change.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--capacity-change must look like AT=c1,c2,..., got '" + change + "'");
            }
            try {
                long at = Long.parseLong(change.substring(0, eq).strip());
                double[] weights = Arrays.stream(change.substring(eq + 1).split(","))
                        .map(String::strip).mapToDouble(Double::parseDouble).toArray();
                plan = plan.withChange(at, weights);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--capacity-change '" + change + "' is not AT=c1,c2,...: " + e.getMessage());
            }
        }
        return plan;
    }

    static void writeJson(Path path, Object document) throws IOException {
        ObjectMapper mapper = new ObjectMapper()
                .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .enable(SerializationFeature.INDENT_OUTPUT);
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        mapper.writeValue(path.toFile(), document);
    }
}
