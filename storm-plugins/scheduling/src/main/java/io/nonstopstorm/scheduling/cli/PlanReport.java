package io.nonstopstorm.scheduling.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.offline.PlanEvaluation;
import io.nonstopstorm.scheduling.offline.PlanningInput;
import io.nonstopstorm.scheduling.offline.PlanningResult;
import io.nonstopstorm.scheduling.offline.TopologyWorkload;
import io.nonstopstorm.wire.ExecutorId;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Renders a planning result as JSON (for programs; its {@code placement} has the shape of the input's
 * {@code current_placement}, so a plan can be fed back) or as a table for people.
 */
final class PlanReport {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private PlanReport() {
    }

    static String failureJson(String scheduler, String reason) {
        ObjectNode root = JSON.createObjectNode();
        root.put("scheduler", scheduler);
        root.put("ok", false);
        root.put("error", reason);
        return write(root);
    }

    static String json(String scheduler, PlanningInput input, PlanningResult result, PlanEvaluation.Evaluation ev,
                       double planningMillis) {
        ObjectNode root = JSON.createObjectNode();
        root.put("scheduler", scheduler);
        root.put("ok", true);
        root.put("planning_ms", round(planningMillis));
        ObjectNode totals = root.putObject("totals");
        totals.put("total_traffic", round(ev.totalTraffic()));
        totals.put("inter_node_traffic", round(ev.interNodeTraffic()));
        number(totals, "inter_node_fraction", ev.totalTraffic() > 0 ? ev.interNodeTraffic() / ev.totalTraffic() : Double.NaN);
        totals.put("inter_slot_traffic", round(ev.interSlotTraffic()));
        totals.put("slots_used", ev.slotsUsed());
        totals.put("nodes_used", ev.nodesUsed());
        strings(totals.putArray("violations"), ev.violations());
        ArrayNode topologies = root.putArray("topologies");
        for (PlanEvaluation.TopologyMetrics m : ev.topologies()) {
            ObjectNode t = topologies.addObject();
            t.put("id", m.id());
            t.put("executors", m.executors());
            t.put("placed", m.placed());
            t.put("workers_requested", m.workersRequested());
            t.put("slots_used", m.slotsUsed());
            t.put("nodes_used", m.nodesUsed());
            t.put("total_traffic", round(m.totalTraffic()));
            t.put("inter_node_traffic", round(m.interNodeTraffic()));
            t.put("inter_slot_traffic", round(m.interSlotTraffic()));
            if (m.moved() >= 0) {
                t.put("moved", m.moved());
            } else {
                t.putNull("moved");
            }
            strings(t.putArray("violations"), m.violations());
            strings(t.putArray("notes"), result.notesOf(m.id()));
            ObjectNode placement = t.putObject("placement");
            for (Map.Entry<SlotId, List<ExecutorId>> e : result.placementOf(m.id()).executorsBySlot().entrySet()) {
                strings(placement.putArray(e.getKey().toString()), e.getValue().stream().map(ExecutorId::toString).toList());
            }
        }
        ArrayNode nodes = root.putArray("nodes");
        for (PlanEvaluation.NodeMetrics n : ev.nodes()) {
            ObjectNode o = nodes.addObject();
            o.put("id", n.id());
            o.put("slots", n.slots());
            o.put("slots_used", n.slotsUsed());
            number(o, "cpu_capacity", n.cpuCapacity());
            o.put("cpu_background", round(n.cpuBackground()));
            o.put("cpu_planned", round(n.cpuPlanned()));
            number(o, "utilisation", n.utilisation());
            number(o, "bandwidth_capacity", n.bandwidthCapacity());
            o.put("bandwidth_background", round(n.bandwidthBackground()));
            o.put("bandwidth_planned", round(n.bandwidthPlanned()));
        }
        return write(root);
    }

    static String table(String scheduler, PlanningInput input, PlanningResult result, PlanEvaluation.Evaluation ev,
                        double planningMillis) {
        StringBuilder out = new StringBuilder();
        out.append(String.format("%s: %d topolog%s planned in %.1f ms%n", scheduler, ev.topologies().size(),
                ev.topologies().size() == 1 ? "y" : "ies", planningMillis));
        out.append(String.format("inter-node traffic %s of %s tuples/s%s, inter-slot %s; %d slot(s) on %d node(s)%n",
                fmt(ev.interNodeTraffic()), fmt(ev.totalTraffic()), ev.totalTraffic() > 0
                        ? String.format(" (%.1f %%)", 100 * ev.interNodeTraffic() / ev.totalTraffic()) : "",
                fmt(ev.interSlotTraffic()), ev.slotsUsed(), ev.nodesUsed()));
        out.append(ev.violations().isEmpty() ? "violations: none\n"
                : "violations:\n" + ev.violations().stream().map(v -> "  - " + v + "\n").collect(Collectors.joining()));
        for (PlanEvaluation.TopologyMetrics m : ev.topologies()) {
            out.append(String.format("%ntopology %s: %d executors, %d worker(s) requested; %d slot(s) on %d node(s); "
                            + "inter-node %s, inter-slot %s of %s tuples/s%s%n", m.id(), m.executors(),
                    m.workersRequested(), m.slotsUsed(), m.nodesUsed(), fmt(m.interNodeTraffic()),
                    fmt(m.interSlotTraffic()), fmt(m.totalTraffic()), m.moved() >= 0 ? "; moved " + m.moved() : ""));
            Placement p = result.placementOf(m.id());
            TopologyWorkload w = input.topologies().stream().filter(x -> x.id().equals(m.id())).findFirst().orElseThrow();
            int width = Math.max(4, p.usedSlots().stream().mapToInt(s -> s.toString().length()).max().orElse(4));
            out.append(String.format("  %-" + width + "s  executors%n", "slot"));
            for (Map.Entry<SlotId, List<ExecutorId>> e : p.executorsBySlot().entrySet()) {
                String executors = e.getValue().stream().map(x -> w.topology().componentOf(x) + x)
                        .collect(Collectors.joining(" "));
                out.append(String.format("  %-" + width + "s  %s%n", e.getKey(), executors));
            }
            result.notesOf(m.id()).forEach(n -> out.append("  note: ").append(n).append('\n'));
        }
        int width = Math.max(4, ev.nodes().stream().mapToInt(n -> n.id().length()).max().orElse(4));
        out.append(String.format("%n%-" + width + "s  %5s  %10s  %10s  %10s  %6s  %12s  %12s%n", "node", "slots",
                "cpu plan", "cpu bg", "cpu cap", "util", "bw planned", "bw cap"));
        for (PlanEvaluation.NodeMetrics n : ev.nodes()) {
            out.append(String.format("%-" + width + "s  %5s  %10s  %10s  %10s  %6s  %12s  %12s%n", n.id(),
                    n.slotsUsed() + "/" + n.slots(), fmt(n.cpuPlanned()), fmt(n.cpuBackground()), fmt(n.cpuCapacity()),
                    Double.isNaN(n.utilisation()) ? "-" : String.format("%.0f%%", 100 * n.utilisation()),
                    fmt(n.bandwidthPlanned()), fmt(n.bandwidthCapacity())));
        }
        return out.toString();
    }

    private static String fmt(double v) {
        return Double.isInfinite(v) ? "unbounded" : String.format("%.1f", v);
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    /** Infinite and NaN have no JSON number: they become null (unbounded / not defined). */
    private static void number(ObjectNode o, String key, double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            o.putNull(key);
        } else {
            o.put(key, round(v));
        }
    }

    private static void strings(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }

    private static String write(ObjectNode root) {
        try {
            return JSON.writeValueAsString(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise the report", e);
        }
    }
}
