package io.nonstopstorm.scheduling.storm;

import com.codahale.metrics.Meter;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.otd.LoadClass;
import io.nonstopstorm.scheduling.otd.Otd;
import io.nonstopstorm.scheduling.otd.OtdDecision;
import io.nonstopstorm.scheduling.otd.OtdPins;
import io.nonstopstorm.scheduling.otd.WorkerLoad;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.apache.storm.metric.StormMetricsRegistry;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.TopologyDetails;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Online Task Deployment (seed 000 §4, {@link Otd}) in Nimbus, as the paper runs it: Storm's default
 * placement first, then one OTD round per cycle on the metrics plane's measurements, each moving at most
 * one executor. A move keeps every worker (the executor changes slots between two running workers of the
 * topology, and only those two slots are reassigned), which the nonstop migration agents carry out live.
 *
 * <p>Per round and topology: executors without a slot are placed by Storm's DefaultScheduler; otherwise,
 * once the cycle has passed since the last round that ran, the measurements are read
 * ({@link OtdMeasurements}) and, if they are fresh and describe the current placement, OTD decides:
 * <ul>
 *   <li>a move: applied; the decision record lists it with the case, the reason and the expected gain;</li>
 *   <li>lacking resources (only overloaded workers): nothing moves; a warning goes to the log, to the
 *       decision record (when it is raised or its workers change) and to Nimbus's meter
 *       {@value #LACKING_METER};</li>
 *   <li>nothing to do: the topology status says why.</li>
 * </ul>
 * Unusable measurements (missing, stale, from before the last move, not new since the last round) mean no
 * round: nothing moves, the status says why, and the next Nimbus round tries again.
 *
 * <p>Settings ({@link OtdSettings}: Nimbus's storm.yaml, overridden by the topology's conf):
 * {@code nonstop.otd.cycle.secs} (5), {@code nonstop.otd.high.cpu} (0.8), {@code nonstop.otd.low.cpu} (0.5),
 * {@code nonstop.otd.high.queue} (1000), {@code nonstop.otd.low.queue} (100), {@code nonstop.otd.threshold.asc}
 * (10 tuples/s), {@code nonstop.otd.max.executors.per.worker} (0 = no limit),
 * {@code nonstop.otd.node.cpu.background} (true). A round runs in a Nimbus round, so the effective cycle is
 * the cycle rounded up to a multiple of {@code nimbus.monitor.freq.secs}.
 */
public class OtdStormScheduler extends ConfiguredScheduler {

    public static final String NAME = "otd";
    public static final String LACKING_METER = "nonstop:otd-lacking-resources";
    public static final String MOVES_METER = "nonstop:otd-moves";

    private static final Logger LOG = LoggerFactory.getLogger(OtdStormScheduler.class);

    /** What is remembered of one topology between Nimbus rounds. */
    private static final class State {
        long lastRoundMs = Long.MIN_VALUE;
        long lastMoveMs = Long.MIN_VALUE;
        Map<String, Long> usedWindows = Map.of();
        List<String> lacking = List.of();
        String lastWait;
    }

    private final SchedulingMetrics metrics;
    private final LongSupplier clockMillis;
    private final Map<String, State> states = new HashMap<>();
    private Meter lackingMeter;
    private Meter movesMeter;

    /** Standalone, without measurements (it then only places by default); the dispatcher wires the metrics plane. */
    public OtdStormScheduler() {
        this(SchedulingMetrics.none(), System::currentTimeMillis);
    }

    public OtdStormScheduler(SchedulingMetrics metrics, LongSupplier clockMillis) {
        super(NAME, Set.of(), true);
        this.metrics = metrics;
        this.clockMillis = clockMillis;
    }

    @Override
    public void prepare(Map<String, Object> conf, StormMetricsRegistry metricsRegistry) {
        super.prepare(conf, metricsRegistry);
        if (metricsRegistry != null) {
            try {
                lackingMeter = metricsRegistry.registerMeter(LACKING_METER);
                movesMeter = metricsRegistry.registerMeter(MOVES_METER);
            } catch (RuntimeException e) {
                LOG.warn("otd: cannot register Nimbus meters ({})", e.toString());
            }
        }
    }

    @Override
    protected Outcome<Step> plan(TopologyDetails td, Cluster cluster) {
        forgetGone(cluster);
        if (!cluster.getUnassignedExecutors(td).isEmpty()) {
            DefaultFallback.schedule(cluster, List.of(td));
            return Outcome.success(Step.keep("placed by Storm's DefaultScheduler (OTD starts from the default "
                                             + "placement and moves executors from the next cycle on)"));
        }
        OtdSettings settings = OtdSettings.of(nimbusConf(), td.getConf());
        State state = states.computeIfAbsent(td.getId(), k -> new State());
        long now = clockMillis.getAsLong();
        if (state.lastRoundMs != Long.MIN_VALUE && now - state.lastRoundMs < settings.cycleMillis()) {
            long left = settings.cycleMillis() - (now - state.lastRoundMs);
            return Outcome.success(Step.keep(String.format("next OTD round in %.1f s", left / 1000.0)));
        }
        Outcome<OtdMeasurements.Input> read = OtdMeasurements.read(td, cluster, metrics, settings.countBackground(),
                state.lastMoveMs, state.usedWindows);
        if (read instanceof Outcome.Failure<OtdMeasurements.Input> f) {
            // Logged when the kind of reason changes, not each Nimbus round (ages and counts in it change).
            String kind = f.reason().replaceAll("\\d+", "#");
            if (!kind.equals(state.lastWait)) {
                LOG.info("otd {}: no round yet: {}", td.getId(), f.reason());
                state.lastWait = kind;
            }
            return Outcome.success(Step.keep("no move: " + f.reason()));
        }
        state.lastWait = null;
        OtdMeasurements.Input input = read.orElseThrow();
        OtdDecision decision = Otd.decide(input.snapshot(), settings.params(),
                                          OtdPins.withSources(Set.of(), StormModelMapper.topology(td)));
        state.lastRoundMs = now;
        state.usedWindows = input.windowEnds();
        Map<String, Object> details = details(decision, input, settings);
        if (decision instanceof OtdDecision.Move move) {
            state.lastMoveMs = now;
            state.lacking = List.of();
            mark(movesMeter);
            String status = String.format("otd case %d: move %s from %s to %s, expected gain %.1f tuples/s: %s",
                    move.paperCase(), move.executor(), move.fromWorker(), move.toWorker(), move.asc(), move.reason());
            return Outcome.success(Step.apply(input.after(move), status).with(new Notice(false, details)));
        }
        if (decision instanceof OtdDecision.LackingResources lacking) {
            mark(lackingMeter);
            String status = "otd case 2: lacking resources, no move: " + lacking.reason();
            boolean raised = !lacking.highLoadWorkers().equals(state.lacking);
            state.lacking = lacking.highLoadWorkers();
            if (raised) {
                LOG.warn("otd {}: lacking resources: {}; add workers or nodes", td.getId(), lacking.reason());
            }
            return Outcome.success(Step.keep(status).with(new Notice(raised, details)));
        }
        state.lacking = List.of();
        return Outcome.success(Step.keep("otd case " + decision.paperCase() + ": no move: " + decision.reason()));
    }

    /** What the decision record adds: the case, the move and its expected gain, and the loads OTD saw. */
    private static Map<String, Object> details(OtdDecision decision, OtdMeasurements.Input input, OtdSettings settings) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("case", decision.paperCase());
        if (decision instanceof OtdDecision.Move m) {
            d.put("executor", m.executor());
            d.put("from", m.fromWorker());
            d.put("to", m.toWorker());
            d.put("expected_gain_tuples_per_s", round(m.asc()));
        }
        if (decision instanceof OtdDecision.LackingResources l) {
            d.put("high_load_workers", l.highLoadWorkers());
        }
        List<Map<String, Object>> workers = new ArrayList<>();
        for (WorkerLoad w : input.snapshot().workers()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("worker", w.worker());
            row.put("class", LoadClass.of(w, settings.params()).name().toLowerCase());
            row.put("cpu_share", round(w.cpu()));
            row.put("load_cores", round(input.loadCores().get(w.worker())));
            row.put("queue", w.queue());
            row.put("window_end_ms", input.windowEnds().get(w.worker()));
            workers.add(row);
        }
        d.put("workers", workers);
        d.put("cycle_s", settings.cycleMillis() / 1000.0);
        return d;
    }

    private static double round(double v) {
        return Math.round(v * 10_000) / 10_000.0;
    }

    private static void mark(Meter meter) {
        if (meter != null) {
            meter.mark();
        }
    }

    /** Drops the state of topologies that are no longer in the cluster. */
    private void forgetGone(Cluster cluster) {
        if (states.isEmpty()) {
            return;
        }
        Set<String> alive = new HashSet<>();
        cluster.getTopologies().forEach(t -> alive.add(t.getId()));
        states.keySet().retainAll(alive);
    }
}
