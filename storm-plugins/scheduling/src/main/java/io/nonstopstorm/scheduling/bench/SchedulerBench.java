package io.nonstopstorm.scheduling.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nonstopstorm.scheduling.bench.SyntheticInstances.Dag;
import io.nonstopstorm.scheduling.bench.SyntheticInstances.Shape;
import io.nonstopstorm.scheduling.cli.PlanCli;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.offline.PlanEvaluation;
import io.nonstopstorm.scheduling.offline.PlanningInput;
import io.nonstopstorm.scheduling.offline.PlanningResult;
import io.nonstopstorm.scheduling.offline.SchedulerParams;
import io.nonstopstorm.scheduling.offline.TopologyWorkload;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Scheduler benchmarks (driven by {@code benchmarks/schedulers.py}, which writes the JSON this prints to
 * {@code results/schedulers/}):
 * <ul>
 *   <li>{@code quality}: inter-node traffic of every scheduler on seeded synthetic instances of several
 *       shapes and sizes, next to Storm's default and resource-aware schedulers and, where the instance is
 *       small enough, the exact optimum. OTD starts from Storm's default placement.</li>
 *   <li>{@code speed}: time of one planning round as the cluster grows, medians over warmed-up repeats:
 *       wall time, CPU time of the planning thread and CPU time of the whole process (Storm's resource-aware
 *       scheduler plans on a thread of its own; the process figure also holds GC and JIT). On a shared,
 *       loaded machine wall time mostly measures waiting, so CPU time is the figure to compare. OTD starts
 *       from the aniello-offline placement (workers spread evenly over the nodes); with the instance's CPU
 *       headroom every worker is LOW, so a round searches all executors × all workers (OTD's worst case). A
 *       scheduler whose run takes more than {@code --cap-seconds} of process CPU is not run on larger sizes.</li>
 * </ul>
 */
public final class SchedulerBench {

    /** Small ones are solved exactly; CPU headroom 1.3 binds, 2.0–2.5 leaves room (and LOW workers for OTD). */
    static final List<Shape> QUALITY_FAMILIES = List.of(
            new Shape("small-chain", Dag.CHAIN, 3, 4, 1, 3, 3, 2, 0, 1.0, 1.3),
            new Shape("small-diamond", Dag.DIAMOND, 4, 4, 1, 3, 3, 2, 0, 1.0, 1.3),
            new Shape("small-random", Dag.RANDOM, 3, 4, 1, 3, 4, 2, 0, 0.75, 1.3),
            new Shape("medium-chain", Dag.CHAIN, 4, 6, 3, 8, 8, 4, 0, 1.0, 2.0),
            new Shape("medium-diamond", Dag.DIAMOND, 4, 6, 3, 8, 8, 4, 0, 1.0, 2.0),
            new Shape("medium-random", Dag.RANDOM, 5, 8, 2, 8, 10, 4, 4, 1.0, 1.3),
            new Shape("large-random", Dag.RANDOM, 8, 12, 10, 30, 30, 4, 4, 1.5, 2.5));

    /**
     * Storm's defaults (10 000 search states, 60 s) refuse or time out the largest sizes; the speed
     * benchmark raises both so the resource-aware scheduler is measured rather than cut off.
     */
    static final SchedulerParams.StormRas RAS_FOR_SPEED = new SchedulerParams.StormRas(
            SchedulerParams.StormRas.DEFAULT_STRATEGY, 0, 128, 100_000, 1800);

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SchedulerBench() {
    }

    public static void main(String[] args) throws Exception {
        PlanCli.useQuietLogging();
        Options options = new Options();
        options.addOption(Option.builder().longOpt("seeds").hasArg().desc("quality: instances per family (20)").get());
        options.addOption(Option.builder().longOpt("families").hasArg().desc("quality: comma-separated family names").get());
        options.addOption(Option.builder().longOpt("sizes").hasArg()
                .desc("speed: NODESxEXECUTORS,... (4x12,10x100,50x500,100x1000,250x2500,500x5000,1000x10000)").get());
        options.addOption(Option.builder().longOpt("repeats").hasArg().desc("speed: measured runs (5)").get());
        options.addOption(Option.builder().longOpt("warmup").hasArg().desc("speed: unmeasured runs first (2)").get());
        options.addOption(Option.builder().longOpt("cap-seconds").hasArg().desc("speed: stop growing a scheduler after a run with this much CPU (10)").get());
        options.addOption(Option.builder().longOpt("budget-seconds").hasArg().desc("speed: time per scheduler and size (20)").get());
        options.addOption(Option.builder().longOpt("schedulers").hasArg().desc("comma-separated subset").get());
        CommandLine cmd;
        try {
            cmd = new DefaultParser().parse(options, args);
        } catch (ParseException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(2);
            return;
        }
        List<String> rest = cmd.getArgList();
        if (rest.size() != 1 || !Set.of("quality", "speed").contains(rest.get(0))) {
            System.err.println("usage: SchedulerBench quality|speed [options]");
            System.exit(2);
        }
        List<String> schedulers = cmd.hasOption("schedulers")
                ? Arrays.asList(cmd.getOptionValue("schedulers").split(",")) : BenchRun.schedulerNames();
        ObjectNode out = rest.get(0).equals("quality")
                ? quality(Integer.parseInt(cmd.getOptionValue("seeds", "20")), families(cmd.getOptionValue("families")), schedulers)
                : speed(sizes(cmd.getOptionValue("sizes", "4x12,10x100,50x500,100x1000,250x2500,500x5000,1000x10000")),
                        schedulers, Integer.parseInt(cmd.getOptionValue("warmup", "2")),
                        Integer.parseInt(cmd.getOptionValue("repeats", "5")),
                        Double.parseDouble(cmd.getOptionValue("cap-seconds", "10")),
                        Double.parseDouble(cmd.getOptionValue("budget-seconds", "20")));
        new PrintStream(System.out, true, StandardCharsets.UTF_8).println(JSON.writeValueAsString(out));
        System.exit(0);
    }

    // ---- quality ----

    static ObjectNode quality(int seeds, List<Shape> families, List<String> schedulers) {
        ObjectNode root = JSON.createObjectNode();
        root.put("benchmark", "quality");
        root.put("seeds", seeds);
        root.set("machine", machine());
        ArrayNode familyList = root.putArray("families");
        for (Shape shape : families) {
            ObjectNode f = familyList.addObject();
            f.put("name", shape.name());
            f.put("dag", shape.dag().name().toLowerCase());
            f.put("nodes", shape.nodes());
            f.put("ports_per_node", shape.portsPerNode());
            f.put("fanout", shape.fanout());
            ArrayNode instances = f.putArray("instances");
            for (long seed = 1; seed <= seeds; seed++) {
                instances.add(qualityInstance(shape, seed, schedulers));
            }
        }
        return root;
    }

    private static ObjectNode qualityInstance(Shape shape, long seed, List<String> schedulers) {
        PlanningInput input = SyntheticInstances.generate(shape, seed);
        TopologyWorkload w = input.topologies().get(0);
        ObjectNode o = JSON.createObjectNode();
        o.put("seed", seed);
        o.put("executors", w.topology().executors().size());
        o.put("workers", w.topology().numWorkers());
        o.put("total_traffic", w.traffic().total());
        ObjectNode results = o.putObject("results");
        Placement stormDefault = null;
        List<String> order = new ArrayList<>(schedulers);
        // OTD needs Storm's default placement to start from.
        order.sort((a, b) -> Boolean.compare(!a.equals("storm-default"), !b.equals("storm-default")));
        for (String s : order) {
            PlanningInput in = input;
            if (s.startsWith("otd")) {
                if (stormDefault == null) {
                    results.putObject(s).put("ok", false).put("error", "no storm-default placement to start from");
                    continue;
                }
                in = input.withTopologies(List.of(w.withCurrent(stormDefault)));
            }
            if (s.equals("optimum") && w.topology().executors().size() > input.params().optimum().maxExecutors()) {
                continue; // only small instances are solved exactly
            }
            long start = System.nanoTime();
            Outcome<PlanningResult> r = BenchRun.plan(s, in);
            double ms = (System.nanoTime() - start) / 1e6;
            ObjectNode res = results.putObject(s);
            res.put("ms", Math.round(ms * 1000) / 1000.0);
            if (r instanceof Outcome.Failure<PlanningResult> f) {
                res.put("ok", false);
                res.put("error", f.reason());
                continue;
            }
            PlanningResult plan = r.orElseThrow();
            PlanEvaluation.Evaluation ev = PlanEvaluation.evaluate(in, plan);
            res.put("ok", true);
            res.put("inter_node_traffic", ev.interNodeTraffic());
            res.put("inter_slot_traffic", ev.interSlotTraffic());
            res.put("slots_used", ev.slotsUsed());
            res.put("nodes_used", ev.nodesUsed());
            res.put("violations", ev.violations().size());
            if (s.equals("storm-default")) {
                stormDefault = plan.placementOf(w.id());
            }
        }
        return o;
    }

    // ---- speed ----

    record Size(int nodes, int executors) {
    }

    static ObjectNode speed(List<Size> sizes, List<String> schedulers, int warmup, int repeats, double capSeconds,
                            double budgetSeconds) {
        ObjectNode root = JSON.createObjectNode();
        root.put("benchmark", "speed");
        root.set("machine", machine());
        root.put("warmup", warmup);
        root.put("repeats", repeats);
        root.put("cap_seconds", capSeconds);
        ArrayNode results = root.putArray("results");
        Map<String, String> stopped = new HashMap<>();
        for (Size size : sizes) {
            PlanningInput input = speedInstance(size);
            TopologyWorkload w = input.topologies().get(0);
            Placement start = BenchRun.plan("aniello-offline", input).orElseThrow().placementOf(w.id());
            PlanningInput running = input.withTopologies(List.of(w.withCurrent(start)));
            for (String s : schedulers) {
                ObjectNode r = results.addObject();
                r.put("scheduler", s);
                r.put("nodes", size.nodes());
                r.put("executors", w.topology().executors().size());
                r.put("workers", w.topology().numWorkers());
                r.put("traffic_pairs", w.traffic().flows().size());
                if (s.equals("optimum") && w.topology().executors().size() > input.params().optimum().maxExecutors()) {
                    r.put("skipped", "above the exact search's size limit");
                    continue;
                }
                if (stopped.containsKey(s)) {
                    r.put("skipped", stopped.get(s));
                    continue;
                }
                PlanningInput in = s.startsWith("otd") ? running : input;
                if (s.equals("storm-ras")) {
                    in = in.withParams(in.params().withStormRas(RAS_FOR_SPEED));
                }
                Timing t = time(s, in, warmup, repeats, capSeconds, budgetSeconds);
                r.put("ok", t.ok);
                if (t.note != null) {
                    r.put("note", t.note);
                }
                r.put("runs", t.wallMs.size());
                r.put("median_ms", round(median(t.wallMs)));
                r.put("min_ms", round(t.wallMs.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN)));
                r.put("median_thread_cpu_ms", round(median(t.threadCpuMs)));
                r.put("median_cpu_ms", round(median(t.cpuMs)));
                if (t.interNode >= 0) {
                    r.put("inter_node_fraction", round(t.interNode / w.traffic().total()));
                }
                if (median(t.cpuMs) > capSeconds * 1000) {
                    stopped.put(s, String.format("not run: %.1f s of CPU at %d executors already exceeds the %.0f s cap",
                            median(t.cpuMs) / 1000, w.topology().executors().size(), capSeconds));
                }
                System.err.printf("speed %-24s %5d nodes %6d executors: median wall %.1f ms, thread CPU %.1f ms, "
                        + "process CPU %.1f ms (%d runs)%n", s, size.nodes(), w.topology().executors().size(),
                        median(t.wallMs), median(t.threadCpuMs), median(t.cpuMs), t.wallMs.size());
            }
        }
        return root;
    }

    /**
     * A random DAG of 20 components (fewer on tiny sizes) with equal parallelism, each executor sending
     * to 4 receivers, 4 ports per node, W = 2 × nodes workers, 3× CPU headroom.
     */
    static PlanningInput speedInstance(Size size) {
        int components = Math.max(2, Math.min(20, size.executors() / 3));
        int parallelism = Math.max(1, size.executors() / components);
        Shape shape = new Shape("speed-" + size.nodes() + "x" + size.executors(), Dag.RANDOM, components, components,
                parallelism, parallelism, size.nodes(), 4, 4, 2.0, 3.0);
        return SyntheticInstances.generate(shape, 1);
    }

    private static final class Timing {
        final List<Double> wallMs = new ArrayList<>();
        final List<Double> cpuMs = new ArrayList<>();
        final List<Double> threadCpuMs = new ArrayList<>();
        boolean ok = true;
        String note;
        double interNode = -1;

        void add(double wall, double threadCpu, double cpu) {
            wallMs.add(wall);
            threadCpuMs.add(threadCpu);
            cpuMs.add(cpu);
        }
    }

    private static Timing time(String scheduler, PlanningInput input, int warmup, int repeats, double capSeconds,
                               double budgetSeconds) {
        Timing t = new Timing();
        long budgetEnd = System.nanoTime() + (long) (budgetSeconds * 1e9);
        int runs = 0;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        while (true) {
            long cpu0 = processCpuNanos();
            long thread0 = threads.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            Outcome<PlanningResult> r = BenchRun.plan(scheduler, input);
            double wall = (System.nanoTime() - start) / 1e6;
            double threadCpu = (threads.getCurrentThreadCpuTime() - thread0) / 1e6;
            double cpu = (processCpuNanos() - cpu0) / 1e6;
            runs++;
            boolean measured = runs > warmup;
            if (r instanceof Outcome.Failure<PlanningResult> f) {
                t.ok = false;
                t.note = f.reason().length() > 300 ? f.reason().substring(0, 300) + "..." : f.reason();
            } else if (t.interNode < 0) {
                PlanningResult plan = r.orElseThrow();
                t.interNode = PlanEvaluation.evaluate(input, plan).interNodeTraffic();
                List<String> notes = plan.notesOf(input.topologies().get(0).id());
                if (!notes.isEmpty()) {
                    t.note = notes.get(0).length() > 300 ? notes.get(0).substring(0, 300) + "..." : notes.get(0);
                }
            }
            // A run too long to repeat counts as the measurement itself; so does a warm-up past the budget.
            if (cpu > capSeconds * 1000 || (!measured && System.nanoTime() > budgetEnd)) {
                t.add(wall, threadCpu, cpu);
                return t;
            }
            if (measured) {
                t.add(wall, threadCpu, cpu);
                if (t.wallMs.size() >= repeats || System.nanoTime() > budgetEnd) {
                    return t;
                }
            }
        }
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    // ---- helpers ----

    private static ObjectNode machine() {
        ObjectNode m = JSON.createObjectNode();
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("java", System.getProperty("java.version"));
        m.put("max_heap_mb", Runtime.getRuntime().maxMemory() / (1024 * 1024));
        m.put("load_average_at_start", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        return m;
    }

    private static List<Shape> families(String names) {
        if (names == null) {
            return QUALITY_FAMILIES;
        }
        Set<String> wanted = new HashSet<>(Arrays.asList(names.split(",")));
        List<Shape> chosen = QUALITY_FAMILIES.stream().filter(s -> wanted.contains(s.name())).toList();
        if (chosen.size() != wanted.size()) {
            throw new IllegalArgumentException("unknown family in " + names + "; known: "
                    + QUALITY_FAMILIES.stream().map(Shape::name).toList());
        }
        return chosen;
    }

    private static List<Size> sizes(String text) {
        List<Size> sizes = new ArrayList<>();
        for (String s : text.split(",")) {
            String[] parts = s.trim().split("x");
            sizes.add(new Size(Integer.parseInt(parts[0]), Integer.parseInt(parts[1])));
        }
        return sizes;
    }

    private static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
