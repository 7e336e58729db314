package io.nonstopstorm.scheduling.cli;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.nonstopstorm.scheduling.core.ComponentAllocation;
import io.nonstopstorm.scheduling.core.ElasticAllocator;
import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.ComponentGraph;
import io.nonstopstorm.scheduling.model.Edge;
import io.nonstopstorm.scheduling.model.Executor;
import io.nonstopstorm.scheduling.model.ExecutorLoads;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.scheduling.model.TrafficMatrix;
import io.nonstopstorm.scheduling.offline.PlanningInput;
import io.nonstopstorm.scheduling.offline.SchedulerParams;
import io.nonstopstorm.scheduling.offline.TopologyWorkload;
import io.nonstopstorm.scheduling.offline.WorkerReading;
import io.nonstopstorm.scheduling.otd.OtdParams;
import io.nonstopstorm.scheduling.otd.WorkerShare;
import io.nonstopstorm.wire.ExecutorId;
import io.nonstopstorm.wire.ExecutorSpans;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads the planning input document (format: {@code storm-plugins/scheduling/PLAN-INPUT.md}) into the
 * offline model. Every problem comes back as one failure naming where in the document it is; nothing is
 * guessed or silently dropped.
 */
public final class PlanInputReader {

    private static final int FIRST_PORT = 6700;
    private static final int MAX_PORT = 65535;

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(JsonParser.Feature.AUTO_CLOSE_SOURCE)
            .build();

    private PlanInputReader() {
    }

    public static Outcome<PlanningInput> read(String document) {
        JsonNode root;
        try {
            root = JSON.readTree(document);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
            return Outcome.failure("input is not valid JSON" + where + ": " + e.getOriginalMessage().lines().findFirst().orElse(""));
        }
        if (root == null || root.isMissingNode()) {
            return Outcome.failure("input is empty: expected a JSON object with 'cluster' and 'topologies'");
        }
        try {
            return Outcome.success(read(root));
        } catch (InputError e) {
            return Outcome.failure(e.getMessage());
        }
    }

    private static PlanningInput read(JsonNode rootNode) {
        JsonFields root = JsonFields.object(rootNode, "");
        root.allowOnly("comment", "cluster", "topology", "topologies", "params");
        JsonFields clusterJson = root.object("cluster");
        Map<String, Double> nodeMemory = new HashMap<>();
        Map<String, Double> nodeBusy = new TreeMap<>();
        ClusterModel cluster = cluster(clusterJson, nodeMemory, nodeBusy);

        List<JsonNode> topologyNodes = new ArrayList<>();
        String listKey;
        if (root.has("topology") == root.has("topologies")) {
            throw new InputError("give either 'topology' (one object) or 'topologies' (a list), not "
                    + (root.has("topology") ? "both" : "neither"));
        } else if (root.has("topology")) {
            topologyNodes.add(root.required("topology"));
            listKey = "topology";
        } else {
            topologyNodes.addAll(root.array("topologies"));
            listKey = "topologies";
            if (topologyNodes.isEmpty()) {
                throw new InputError("topologies: the list is empty");
            }
        }
        List<TopologyWorkload> workloads = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        Set<SlotId> currentSlots = new HashSet<>();
        for (int i = 0; i < topologyNodes.size(); i++) {
            String path = listKey.equals("topology") ? "topology" : "topologies[" + i + "]";
            TopologyWorkload w = topology(JsonFields.object(topologyNodes.get(i), path), cluster);
            if (!ids.add(w.id())) {
                throw new InputError(path + ".id: topology " + w.id() + " is listed twice");
            }
            for (SlotId s : w.current().usedSlots()) {
                if (!currentSlots.add(s)) {
                    throw new InputError(path + ".current_placement: slot " + s + " is also in another topology's "
                            + "current placement");
                }
            }
            workloads.add(w);
        }
        checkWorkersFit(workloads, cluster, listKey);
        cluster = withMeasuredBackground(cluster, nodeBusy, workloads);
        SchedulerParams params = root.optionalObject("params").map(PlanInputReader::params).orElse(SchedulerParams.DEFAULTS);
        for (String topologyId : params.sam().allocations().keySet()) {
            if (!ids.contains(topologyId)) {
                throw new InputError("params.sam.allocation: no topology '" + topologyId + "'");
            }
        }
        for (TopologyWorkload w : workloads) {
            for (String c : params.sam().of(w.id()).keySet()) {
                if (!w.topology().graph().contains(c)) {
                    throw new InputError("params.sam.allocation." + w.id() + ": topology has no component '" + c + "'");
                }
            }
        }
        return new PlanningInput(cluster, workloads, nodeMemory, params);
    }

    // ---- cluster ----

    private static ClusterModel cluster(JsonFields json, Map<String, Double> nodeMemory, Map<String, Double> nodeBusy) {
        json.allowOnly("nodes", "occupied");
        List<JsonNode> nodeList = json.array("nodes");
        if (nodeList.isEmpty()) {
            throw new InputError("cluster.nodes: the list is empty");
        }
        List<Node> nodes = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < nodeList.size(); i++) {
            JsonFields n = JsonFields.object(nodeList.get(i), "cluster.nodes[" + i + "]");
            n.allowOnly("id", "ports", "slots", "cpu_capacity", "cpu_background", "cpu_busy", "bandwidth_capacity",
                    "bandwidth_background", "memory_mb");
            String id = n.string("id");
            if (!ids.add(id)) {
                throw new InputError(n.path("id") + ": node " + id + " is listed twice");
            }
            List<Integer> ports = ports(n);
            double cpuCapacity = n.has("cpu_capacity") ? n.nonNegative("cpu_capacity", 0) : Double.POSITIVE_INFINITY;
            double bwCapacity = n.has("bandwidth_capacity") ? n.nonNegative("bandwidth_capacity", 0) : Double.POSITIVE_INFINITY;
            nodes.add(new Node(id, ports, cpuCapacity, bwCapacity, n.nonNegative("cpu_background", 0),
                    n.nonNegative("bandwidth_background", 0)));
            if (n.has("memory_mb")) {
                nodeMemory.put(id, n.nonNegative("memory_mb", 0));
            }
            if (n.has("cpu_busy")) {
                if (n.has("cpu_background")) {
                    throw new InputError(n.path("cpu_busy") + ": give cpu_busy (measured, the topologies' workers "
                            + "included) or cpu_background (other work only), not both");
                }
                if (Double.isInfinite(cpuCapacity)) {
                    throw new InputError(n.path("cpu_busy") + ": a measured busy CPU needs the node's cpu_capacity");
                }
                nodeBusy.put(id, n.nonNegative("cpu_busy", 0));
            }
        }
        ClusterModel bare = ClusterModel.of(nodes);
        Map<SlotId, String> owners = new TreeMap<>();
        for (Map.Entry<String, JsonNode> e : json.optionalObject("occupied").map(JsonFields::entries).orElse(List.of())) {
            String path = "cluster.occupied." + e.getKey();
            SlotId slot = slot(e.getKey(), bare, path);
            owners.put(slot, JsonFields.string(e.getValue(), path));
        }
        return new ClusterModel(nodes, owners);
    }

    private static List<Integer> ports(JsonFields n) {
        if (n.has("ports") == n.has("slots")) {
            throw new InputError(JsonFields.where(n.path()) + "give either 'ports' (a list) or 'slots' (a count), not "
                    + (n.has("ports") ? "both" : "neither"));
        }
        List<Integer> ports = new ArrayList<>();
        if (n.has("slots")) {
            long count = n.integer("slots", 0);
            if (count > MAX_PORT - FIRST_PORT + 1) {
                throw new InputError(n.path("slots") + ": " + count + " slots do not fit in ports " + FIRST_PORT + "-"
                        + MAX_PORT);
            }
            for (int p = 0; p < count; p++) {
                ports.add(FIRST_PORT + p);
            }
            return ports;
        }
        List<JsonNode> list = n.array("ports");
        for (int k = 0; k < list.size(); k++) {
            long p = JsonFields.integer(list.get(k), n.path("ports") + "[" + k + "]", 1);
            if (p > 65535) {
                throw new InputError(n.path("ports") + "[" + k + "]: " + p + " is not a port number");
            }
            if (ports.contains((int) p)) {
                throw new InputError(n.path("ports") + ": port " + p + " is listed twice");
            }
            ports.add((int) p);
        }
        return ports;
    }

    /** {@code node:port} of an existing slot. */
    private static SlotId slot(String text, ClusterModel cluster, String path) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new InputError(path + ": '" + text + "' is not a slot (expected NODE:PORT, e.g. n1:6700)");
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1).trim());
        } catch (NumberFormatException e) {
            throw new InputError(path + ": '" + text + "' is not a slot (expected NODE:PORT, e.g. n1:6700)");
        }
        SlotId slot = new SlotId(text.substring(0, colon), port);
        if (cluster.node(slot.nodeId()).isEmpty()) {
            throw new InputError(path + ": slot " + slot + " names unknown node '" + slot.nodeId() + "'");
        }
        if (!cluster.hasSlot(slot)) {
            throw new InputError(path + ": node " + slot.nodeId() + " has no port " + port + " (its ports: "
                    + cluster.node(slot.nodeId()).orElseThrow().ports() + ")");
        }
        return slot;
    }

    // ---- topologies ----

    private static TopologyWorkload topology(JsonFields t, ClusterModel cluster) {
        t.allowOnly("id", "workers", "components", "edges", "executors", "traffic", "executor_cpu",
                "current_placement", "worker_load");
        String id = t.string("id");
        int workers = (int) t.integer("workers", 1);

        List<String> components = new ArrayList<>();
        Map<String, Integer> parallelism = new LinkedHashMap<>();
        Map<String, Double> memory = new HashMap<>();
        List<JsonNode> componentList = t.array("components");
        if (componentList.isEmpty()) {
            throw new InputError(t.path("components") + ": the list is empty");
        }
        boolean explicitExecutors = t.has("executors");
        long totalTasks = 0;
        for (int i = 0; i < componentList.size(); i++) {
            JsonFields c = JsonFields.object(componentList.get(i), t.path("components") + "[" + i + "]");
            c.allowOnly("name", "parallelism", "memory_mb");
            String name = c.string("name");
            if (components.contains(name)) {
                throw new InputError(c.path("name") + ": component " + name + " is declared twice");
            }
            components.add(name);
            if (explicitExecutors && c.has("parallelism")) {
                throw new InputError(c.path("parallelism") + ": the topology lists its executors explicitly, so "
                        + "components take no parallelism");
            }
            if (!explicitExecutors) {
                long p = c.integer("parallelism", 0);
                totalTasks += p;
                Optional<String> tooMany = ExecutorSpans.checkTotal(totalTasks);
                if (tooMany.isPresent()) {
                    throw new InputError(c.path("parallelism") + ": " + tooMany.get());
                }
                parallelism.put(name, (int) p);
            }
            if (c.has("memory_mb")) {
                memory.put(name, c.nonNegative("memory_mb", 0));
            }
        }
        List<Edge> edges = new ArrayList<>();
        List<JsonNode> edgeList = t.optionalArray("edges");
        for (int i = 0; i < edgeList.size(); i++) {
            String path = t.path("edges") + "[" + i + "]";
            JsonNode e = edgeList.get(i);
            if (!e.isArray() || e.size() != 2) {
                throw new InputError(path + ": expected [FROM, TO], got " + JsonFields.describe(e));
            }
            String from = JsonFields.string(e.get(0), path + "[0]");
            String to = JsonFields.string(e.get(1), path + "[1]");
            for (String c : List.of(from, to)) {
                if (!components.contains(c)) {
                    throw new InputError(path + ": unknown component '" + c + "' (components: " + components + ")");
                }
            }
            edges.add(new Edge(from, to));
        }
        ComponentGraph graph;
        try {
            graph = new ComponentGraph(components, edges);
        } catch (IllegalArgumentException e) {
            throw new InputError(t.path("edges") + ": " + e.getMessage());
        }
        TopologyModel topology;
        try {
            topology = explicitExecutors ? new TopologyModel(id, graph, executors(t, components), workers)
                    : TopologyModel.withParallelism(id, graph, parallelism, workers);
        } catch (IllegalArgumentException e) {
            throw new InputError(t.path() + ": " + e.getMessage());
        }
        if (topology.executors().isEmpty()) {
            throw new InputError(t.path() + ": topology " + id + " has no executors");
        }
        TrafficMatrix traffic = traffic(t, topology);
        ExecutorLoads loads = loads(t, topology);
        Placement current = current(t, topology, cluster);
        Map<SlotId, WorkerReading> readings = workerReadings(t, cluster, current);
        return new TopologyWorkload(topology, traffic, loads, current, memory, readings);
    }

    private static List<Executor> executors(JsonFields t, List<String> components) {
        List<Executor> executors = new ArrayList<>();
        Set<ExecutorId> seen = new HashSet<>();
        List<JsonNode> list = t.array("executors");
        for (int i = 0; i < list.size(); i++) {
            JsonFields e = JsonFields.object(list.get(i), t.path("executors") + "[" + i + "]");
            e.allowOnly("id", "component");
            ExecutorId id = executorId(e.required("id"), e.path("id"));
            String component = e.string("component");
            if (!components.contains(component)) {
                throw new InputError(e.path("component") + ": unknown component '" + component + "'");
            }
            if (!seen.add(id)) {
                throw new InputError(e.path("id") + ": executor " + id + " is listed twice");
            }
            executors.add(new Executor(id, component));
        }
        // Storm keeps a component's executors together; so do the schedulers that deal them out in order.
        executors.sort((a, b) -> a.component().equals(b.component()) ? a.id().compareTo(b.id())
                : Integer.compare(components.indexOf(a.component()), components.indexOf(b.component())));
        return executors;
    }

    /** An executor as {@code "[3,4]"}, {@code "[3-4]"} (Storm's UI), {@code "3"} or {@code 3} (a single-task executor). */
    static ExecutorId executorId(JsonNode v, String path) {
        if (!v.isIntegralNumber() && !v.isTextual()) {
            throw new InputError(path + ": expected an executor id like \"[3,3]\" or 3, got " + JsonFields.describe(v));
        }
        return executorId(v.asText(), path);
    }

    private static ExecutorId executorId(String text, String path) {
        // A bare task id is short for its single-task executor.
        boolean task = !text.isEmpty() && text.chars().allMatch(c -> c == '-' || Character.isDigit(c));
        try {
            return ExecutorSpans.parse(task ? "[" + text + "," + text + "]" : text, false,
                                       ExecutorId.Spelling.WIRE, ExecutorId.Spelling.UI);
        } catch (IllegalArgumentException e) {
            throw new InputError(path + ": " + e.getMessage());
        }
    }

    private static ExecutorId knownExecutor(JsonNode v, String path, TopologyModel topology) {
        return known(executorId(v, path), path, topology);
    }

    private static ExecutorId known(ExecutorId id, String path, TopologyModel topology) {
        if (!topology.hasExecutor(id)) {
            List<ExecutorId> all = topology.executorIds();
            throw new InputError(path + ": executor " + id + " is not an executor of topology " + topology.id()
                    + " (it has " + all.size() + ": " + (all.size() <= 6 ? all.toString()
                    : all.get(0) + " ... " + all.get(all.size() - 1)) + ")");
        }
        return id;
    }

    private static TrafficMatrix traffic(JsonFields t, TopologyModel topology) {
        TrafficMatrix.Builder b = TrafficMatrix.builder();
        List<JsonNode> list = t.optionalArray("traffic");
        for (int i = 0; i < list.size(); i++) {
            JsonFields f = JsonFields.object(list.get(i), t.path("traffic") + "[" + i + "]");
            f.allowOnly("from", "to", "rate");
            ExecutorId from = knownExecutor(f.required("from"), f.path("from"), topology);
            ExecutorId to = knownExecutor(f.required("to"), f.path("to"), topology);
            double rate = JsonFields.number(f.required("rate"), f.path("rate"));
            if (rate < 0) {
                throw new InputError(f.path("rate") + ": must be >= 0 tuples/s, got " + rate);
            }
            b.add(from, to, rate);
        }
        return b.build();
    }

    private static ExecutorLoads loads(JsonFields t, TopologyModel topology) {
        Map<ExecutorId, Double> loads = new HashMap<>();
        for (Map.Entry<String, JsonNode> e : t.optionalObject("executor_cpu").map(JsonFields::entries).orElse(List.of())) {
            String path = t.path("executor_cpu") + "." + e.getKey();
            ExecutorId id = known(executorId(e.getKey(), path), path, topology);
            double load = JsonFields.number(e.getValue(), path);
            if (load < 0) {
                throw new InputError(path + ": must be >= 0, got " + load);
            }
            if (loads.put(id, load) != null) {
                throw new InputError(path + ": executor " + id + " is given twice");
            }
        }
        return ExecutorLoads.of(loads);
    }

    private static Placement current(JsonFields t, TopologyModel topology, ClusterModel cluster) {
        Map<ExecutorId, SlotId> slotOf = new HashMap<>();
        for (Map.Entry<String, JsonNode> e : t.optionalObject("current_placement").map(JsonFields::entries).orElse(List.of())) {
            String path = t.path("current_placement") + "." + e.getKey();
            SlotId slot = slot(e.getKey(), cluster, path);
            cluster.ownerOf(slot).ifPresent(owner -> {
                throw new InputError(path + ": slot " + slot + " is occupied by topology " + owner
                        + " (cluster.occupied)");
            });
            if (!e.getValue().isArray()) {
                throw new InputError(path + ": expected a list of executor ids, got " + JsonFields.describe(e.getValue()));
            }
            int k = 0;
            for (JsonNode x : e.getValue()) {
                ExecutorId id = knownExecutor(x, path + "[" + k++ + "]", topology);
                SlotId before = slotOf.put(id, slot);
                if (before != null) {
                    throw new InputError(path + ": executor " + id + " is also placed on " + before);
                }
            }
        }
        return Placement.of(slotOf);
    }

    private static Map<SlotId, WorkerReading> workerReadings(JsonFields t, ClusterModel cluster, Placement current) {
        Map<SlotId, WorkerReading> readings = new HashMap<>();
        for (Map.Entry<String, JsonNode> e : t.optionalObject("worker_load").map(JsonFields::entries).orElse(List.of())) {
            String path = t.path("worker_load") + "." + e.getKey();
            SlotId slot = slot(e.getKey(), cluster, path);
            if (!current.usedSlots().contains(slot)) {
                throw new InputError(path + ": slot " + slot + " runs no executor of this topology in current_placement");
            }
            JsonFields r = JsonFields.object(e.getValue(), path);
            if (r.has("cpu")) {
                throw new InputError(r.path("cpu") + ": give the worker's measured load (the CPU it uses, in the unit "
                        + "of cpu_capacity); its share is derived from it");
            }
            r.allowOnly("load", "queue");
            r.required("load");
            readings.put(slot, new WorkerReading(r.nonNegative("load", 0), r.integer("queue", 0, 0)));
        }
        return readings;
    }

    /**
     * Nodes given a measured {@code cpu_busy} get as background what other work uses there: busy minus the
     * measured load of the planned topologies' workers on the node ({@link WorkerShare#background}), at
     * most the node's capacity.
     */
    private static ClusterModel withMeasuredBackground(ClusterModel cluster, Map<String, Double> nodeBusy,
                                                       List<TopologyWorkload> workloads) {
        if (nodeBusy.isEmpty()) {
            return cluster;
        }
        Map<String, Double> own = new HashMap<>();
        for (TopologyWorkload w : workloads) {
            w.workerReadings().forEach((slot, r) -> own.merge(slot.nodeId(), r.load(), Double::sum));
        }
        List<Node> nodes = new ArrayList<>();
        for (Node n : cluster.nodes()) {
            Double busy = nodeBusy.get(n.id());
            nodes.add(busy == null ? n : n.withBackground(
                    Math.min(n.cpuCapacity(), WorkerShare.background(busy, own.getOrDefault(n.id(), 0.0))),
                    n.bandwidthBackground()));
        }
        return cluster.withNodes(nodes);
    }

    /** Each topology can get its W' = min(W, E) workers, and all of them together fit the free slots. */
    private static void checkWorkersFit(List<TopologyWorkload> workloads, ClusterModel cluster, String listKey) {
        int free = cluster.allSlots().size() - cluster.slotOwners().size();
        int needed = 0;
        for (int i = 0; i < workloads.size(); i++) {
            TopologyModel t = workloads.get(i).topology();
            int w = t.effectiveWorkers();
            needed += w;
            if (w > free) {
                String path = listKey.equals("topology") ? "topology" : "topologies[" + i + "]";
                throw new InputError(path + ".workers: topology " + t.id() + " asks for " + t.numWorkers()
                        + " workers (" + w + " usable with its " + t.executors().size() + " executors) but the "
                        + "cluster has only " + free + " free slots (" + cluster.allSlots().size() + " slots, "
                        + cluster.slotOwners().size() + " occupied)");
            }
        }
        if (needed > free) {
            throw new InputError("topologies: together they need " + needed + " workers but the cluster has only "
                    + free + " free slots");
        }
    }

    // ---- params ----

    private static SchedulerParams params(JsonFields p) {
        p.allowOnly("aniello", "elastic", "otd", "optimum", "sam", "storm_ras");
        SchedulerParams params = SchedulerParams.DEFAULTS;
        try {
            if (p.has("aniello")) {
                JsonFields a = p.object("aniello").allowOnly("alpha", "beta");
                SchedulerParams.Aniello d = SchedulerParams.Aniello.DEFAULTS;
                params = params.withAniello(new SchedulerParams.Aniello(a.unitInterval("alpha", d.alpha()),
                        a.unitInterval("beta", d.beta())));
            }
            if (p.has("elastic")) {
                JsonFields e = p.object("elastic").allowOnly("cpu_limit", "bandwidth_limit", "time_budget_ms");
                ElasticAllocator.Params d = params.elastic();
                params = params.withElastic(new ElasticAllocator.Params(positive(e, "cpu_limit", d.cpuLimit()),
                        positive(e, "bandwidth_limit", d.bandwidthLimit()),
                        (long) (1e6 * e.nonNegative("time_budget_ms", d.timeBudgetNanos() / 1e6))));
            }
            if (p.has("otd")) {
                params = params.withOtd(otd(p.object("otd")));
            }
            if (p.has("optimum")) {
                JsonFields o = p.object("optimum").allowOnly("max_executors", "max_search_nodes");
                SchedulerParams.Optimum d = SchedulerParams.Optimum.DEFAULTS;
                params = params.withOptimum(new SchedulerParams.Optimum((int) o.integer("max_executors", 1, d.maxExecutors()),
                        o.integer("max_search_nodes", 1, d.maxSearchNodes())));
            }
            if (p.has("sam")) {
                params = params.withSam(sam(p.object("sam")));
            }
            if (p.has("storm_ras")) {
                JsonFields r = p.object("storm_ras").allowOnly("strategy", "worker_max_heap_mb", "default_memory_mb",
                        "max_state_search", "timeout_seconds");
                SchedulerParams.StormRas d = SchedulerParams.StormRas.DEFAULTS;
                params = params.withStormRas(new SchedulerParams.StormRas(r.has("strategy") ? r.string("strategy") : d.strategy(),
                        r.nonNegative("worker_max_heap_mb", d.workerMaxHeapMb()),
                        r.nonNegative("default_memory_mb", d.defaultMemoryMb()),
                        (int) r.integer("max_state_search", 1, d.maxStateSearch()),
                        (int) r.integer("timeout_seconds", 1, d.timeoutSeconds())));
            }
        } catch (IllegalArgumentException e) {
            throw new InputError("params: " + e.getMessage());
        }
        return params;
    }

    private static double positive(JsonFields f, String key, double fallback) {
        double v = f.number(key, fallback);
        if (!(v > 0)) {
            throw new InputError(f.path(key) + ": must be > 0, got " + v);
        }
        return v;
    }

    private static SchedulerParams.Otd otd(JsonFields o) {
        o.allowOnly("high_cpu", "low_cpu", "high_queue", "low_queue", "threshold_asc", "max_executors_per_worker",
                    "may_take_last_executor", "relieve_within_node", "pinned");
        OtdParams d = OtdParams.DEFAULTS;
        OtdParams thresholds = new OtdParams(o.unitInterval("high_cpu", d.highCpu()), o.unitInterval("low_cpu", d.lowCpu()),
                o.integer("high_queue", 0, d.highQueue()), o.integer("low_queue", 0, d.lowQueue()),
                o.nonNegative("threshold_asc", d.thresholdAsc()),
                (int) o.integer("max_executors_per_worker", 0, d.maxExecutorsPerWorker()),
                o.bool("may_take_last_executor", d.mayTakeLastExecutor()),
                o.bool("relieve_within_node", d.relieveWithinNode()));
        Set<String> pinned = new LinkedHashSet<>();
        List<JsonNode> list = o.optionalArray("pinned");
        for (int i = 0; i < list.size(); i++) {
            pinned.add(executorId(list.get(i), o.path("pinned") + "[" + i + "]").toString());
        }
        return new SchedulerParams.Otd(thresholds, pinned);
    }

    private static SchedulerParams.Sam sam(JsonFields s) {
        s.allowOnly("allocation");
        Map<String, Map<String, ComponentAllocation>> all = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> t : s.object("allocation").entries()) {
            JsonFields perComponent = JsonFields.object(t.getValue(), s.path("allocation") + "." + t.getKey());
            Map<String, ComponentAllocation> m = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> c : perComponent.entries()) {
                JsonFields a = JsonFields.object(c.getValue(), perComponent.path(c.getKey()));
                a.allowOnly("cpu", "memory", "bundle");
                int bundle = (int) a.integer("bundle", 1, ComponentAllocation.NO_BUNDLE);
                m.put(c.getKey(), new ComponentAllocation(a.nonNegative("cpu", 0), a.nonNegative("memory", 0), bundle));
            }
            all.put(t.getKey(), m);
        }
        return new SchedulerParams.Sam(all);
    }
}
