package io.nonstopstorm.grouping.sim;

import io.nonstopstorm.grouping.aggregate.CountMerger;
import io.nonstopstorm.grouping.aggregate.PartialCounts;
import io.nonstopstorm.grouping.core.ConsistentGrouping;
import io.nonstopstorm.grouping.core.KeyRouter;
import io.nonstopstorm.grouping.signal.BroadcastLoadSignals;
import io.nonstopstorm.grouping.signal.LoadSignals;
import io.nonstopstorm.grouping.signal.WorkerDelegate;
import io.nonstopstorm.grouping.signal.WorkerLoadReporter;
import io.nonstopstorm.grouping.signal.WorkerSignal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * Discrete-time simulation of one stream edge (the paper's DAG: a stream shuffled into S sources that
 * route keys to W workers). Virtual time: one message arrives per tick; worker w serves
 * {@code rate_w} messages per tick from its FIFO queue (fractional rates accumulate as credit while it
 * has work; an idle worker banks nothing). Network latency is ignored, as in the paper.
 *
 * <p>Per tick: capacity changes take effect; the message enters source {@code t mod S}, which first
 * applies the load signals that reached it, then routes; workers serve; at time-slot boundaries CG
 * workers report their slot utilisation to their delegate; at aggregation boundaries workers flush
 * partial counts; at sample boundaries a time-series entry is recorded. After the last message the
 * queues drain, so latency covers every message. Fully deterministic for a given config and trace.
 */
public final class Simulation {
    private static final double EPS = 1e-9;

    private final SimulationConfig config;
    private final KeyTrace trace;

    public Simulation(SimulationConfig config, KeyTrace trace) {
        this.config = config;
        this.trace = trace;
    }

    public RunResult run(Scheme scheme) {
        return new Run(scheme).execute();
    }

    /** State of one run; a fresh one per scheme. */
    private final class Run {
        private final Scheme scheme;
        private final int n = config.workers();
        private final int sourceCount = config.sources();
        private final KeyRouter[] routers = new KeyRouter[sourceCount];
        private final LoadSignals signalPath;
        private final PiggybackedLoadSignals piggyback;
        private final WorkerLoadReporter[] reporters;
        private final MessageQueue[] queues = new MessageQueue[n];
        private final double[] credit = new double[n];
        private double[] rates;

        private final BitSet[] seen = new BitSet[n];
        private long memory;
        private final List<PartialCounts<Integer>> partials = new ArrayList<>(n);
        private final CountMerger<Integer> merger = new CountMerger<>();

        private final long[] totalArrivals = new long[n];
        private final double[] totalCapacity = new double[n];
        private final long[] windowArrivals = new long[n];
        private final double[] windowCapacity = new double[n];
        private final long[] slotArrivals = new long[n];
        private final double[] slotCapacity = new double[n];
        private final double[] windowLatencySum = new double[n];
        private final long[] windowFinished = new long[n];
        private int[] latencies = new int[1024];
        private int latencyCount;
        private long signals;
        private long moves;

        private final SeriesBuilder series = new SeriesBuilder();

        Run(Scheme scheme) {
            this.scheme = scheme;
            for (int s = 0; s < sourceCount; s++) {
                routers[s] = scheme.router(config, n, s);
            }
            for (int w = 0; w < n; w++) {
                queues[w] = new MessageQueue();
                seen[w] = new BitSet(trace.distinctKeys());
                partials.add(new PartialCounts<>());
            }
            rates = config.capacities().serviceRatesAt(0, config.load());
            if (scheme == Scheme.CG) {
                if (config.piggyback()) {
                    piggyback = new PiggybackedLoadSignals(n, sourceCount);
                    signalPath = piggyback;
                } else {
                    BroadcastLoadSignals broadcast = new BroadcastLoadSignals();
                    for (int s = 0; s < sourceCount; s++) {
                        broadcast.subscribe(s);
                    }
                    piggyback = null;
                    signalPath = broadcast;
                }
                reporters = new WorkerLoadReporter[n];
                for (int w = 0; w < n; w++) {
                    reporters[w] = new WorkerLoadReporter(w, new WorkerDelegate(config.delegation(), 0), signalPath);
                }
            } else {
                signalPath = null;
                piggyback = null;
                reporters = null;
            }
        }

        RunResult execute() {
            int[] ids = trace.ids();
            byte[][] keyBytes = trace.bytes();
            long slot = config.delegation().timeSlot();
            List<CapacityPlan.Change> changes = config.capacities().changes();
            int nextChange = 0;
            for (int t = 0; t < ids.length; t++) {
                while (nextChange < changes.size() && changes.get(nextChange).atMessage() <= t) {
                    nextChange++;
                    rates = config.capacities().serviceRatesAt(t, config.load());
                }
                int s = t % sourceCount;
                applySignals(s);
                int key = ids[t];
                int w = routers[s].route(keyBytes[key]);
                arrive(w, key, t, s);
                serve(t);
                long tick = t + 1L;
                if (reporters != null && tick % slot == 0) {
                    reportSlot(tick);
                }
                if (tick % config.aggregationPeriod() == 0) {
                    aggregate();
                }
                if (tick % config.sampleEvery() == 0 || t == ids.length - 1) {
                    sample(tick);
                }
            }
            long drainTicks = drain(ids.length);
            aggregate();
            return new RunResult(scheme.id(), summary(drainTicks), series.build(scheme == Scheme.CG));
        }

        private void applySignals(int source) {
            if (signalPath == null) {
                return;
            }
            ConsistentGrouping cg = (ConsistentGrouping) routers[source];
            for (WorkerSignal signal : signalPath.poll(source)) {
                if (cg.onSignal(signal).isPresent()) {
                    moves++;
                }
            }
        }

        private void arrive(int w, int key, long tick, int source) {
            queues[w].add(tick, source);
            totalArrivals[w]++;
            windowArrivals[w]++;
            slotArrivals[w]++;
            if (!seen[w].get(key)) {
                seen[w].set(key);
                memory++;
            }
            partials.get(w).add(key);
        }

        private void serve(long tick) {
            for (int w = 0; w < n; w++) {
                double rate = rates[w];
                totalCapacity[w] += rate;
                windowCapacity[w] += rate;
                slotCapacity[w] += rate;
                serveOne(w, tick, rate);
            }
        }

        /** One tick of service at worker w; returns nothing, records latencies and acks. */
        private void serveOne(int w, long tick, double rate) {
            MessageQueue queue = queues[w];
            if (queue.isEmpty()) {
                credit[w] = 0;
                return;
            }
            credit[w] += rate;
            while (credit[w] >= 1 - EPS && !queue.isEmpty()) {
                long latency = tick + 1 - queue.headArrival();
                int source = queue.headSource();
                queue.removeHead();
                credit[w] -= 1;
                recordLatency(w, latency);
                if (piggyback != null) {
                    piggyback.acknowledged(w, source);
                }
            }
            if (queue.isEmpty()) {
                credit[w] = 0;
            }
        }

        private void recordLatency(int w, long latency) {
            if (latencyCount == latencies.length) {
                latencies = Arrays.copyOf(latencies, latencies.length * 2);
            }
            latencies[latencyCount++] = (int) Math.min(latency, Integer.MAX_VALUE);
            windowLatencySum[w] += latency;
            windowFinished[w]++;
        }

        private void reportSlot(long tick) {
            for (int w = 0; w < n; w++) {
                double utilisation = slotCapacity[w] > 0 ? slotArrivals[w] / slotCapacity[w] : 0;
                if (reporters[w].report(tick, utilisation).isPresent()) {
                    signals++;
                }
                slotArrivals[w] = 0;
                slotCapacity[w] = 0;
            }
        }

        private void aggregate() {
            for (PartialCounts<Integer> partial : partials) {
                merger.merge(partial.drain());
            }
        }

        /** Serves the remaining queues worker by worker; returns ticks until the last one emptied. */
        private long drain(long firstTick) {
            long longest = 0;
            for (int w = 0; w < n; w++) {
                long tick = firstTick;
                while (!queues[w].isEmpty()) {
                    serveOne(w, tick, rates[w]);
                    tick++;
                }
                longest = Math.max(longest, tick - firstTick);
            }
            return longest;
        }

        private void sample(long tick) {
            double[] utilisation = new double[n];
            double[] cumulative = new double[n];
            int[] queueLengths = new int[n];
            double latencySum = 0;
            long finished = 0;
            double latencyMin = Double.POSITIVE_INFINITY;
            double latencyMax = Double.NEGATIVE_INFINITY;
            for (int w = 0; w < n; w++) {
                utilisation[w] = windowCapacity[w] > 0 ? windowArrivals[w] / windowCapacity[w] : 0;
                cumulative[w] = totalCapacity[w] > 0 ? totalArrivals[w] / totalCapacity[w] : 0;
                queueLengths[w] = queues[w].size();
                if (windowFinished[w] > 0) {
                    double mean = windowLatencySum[w] / windowFinished[w];
                    latencyMin = Math.min(latencyMin, mean);
                    latencyMax = Math.max(latencyMax, mean);
                    latencySum += windowLatencySum[w];
                    finished += windowFinished[w];
                }
                windowArrivals[w] = 0;
                windowCapacity[w] = 0;
                windowLatencySum[w] = 0;
                windowFinished[w] = 0;
            }
            int[] vws = null;
            if (scheme == Scheme.CG) {
                ConsistentGrouping cg = (ConsistentGrouping) routers[0];
                vws = new int[n];
                for (int w = 0; w < n; w++) {
                    vws[w] = cg.virtualWorkersOf(w);
                }
            }
            series.add(tick, Stats.maxMinusMean(utilisation), Stats.maxMinusMean(cumulative), Stats.maxMinusMin(utilisation),
                    utilisation,
                    queueLengths, finished == 0 ? null : latencySum / finished,
                    finished == 0 ? null : latencyMax - latencyMin, memory, signals, moves, vws);
        }

        private RunResult.Summary summary(long drainTicks) {
            int[] sorted = Arrays.copyOf(latencies, latencyCount);
            Arrays.sort(sorted);
            double latencyMean = Arrays.stream(sorted).asLongStream().sum() / (double) Math.max(1, latencyCount);
            double[] cumulative = new double[n];
            for (int w = 0; w < n; w++) {
                cumulative[w] = totalCapacity[w] > 0 ? totalArrivals[w] / totalCapacity[w] : 0;
            }
            int[] vwFinal = null;
            int divergent = 0;
            if (scheme == Scheme.CG) {
                ConsistentGrouping first = (ConsistentGrouping) routers[0];
                vwFinal = new int[n];
                for (int w = 0; w < n; w++) {
                    vwFinal[w] = first.virtualWorkersOf(w);
                }
                for (int s = 1; s < sourceCount; s++) {
                    if (!sameTable(first, (ConsistentGrouping) routers[s])) {
                        divergent++;
                    }
                }
            }
            List<Double> imbalance = series.imbalance;
            List<Long> ticks = series.t;
            long half = trace.messages() / 2;
            double secondHalf = Stats.mean(imbalance, i -> ticks.get(i) > half);
            return new RunResult.Summary(trace.messages(), n, sourceCount, trace.distinctKeys(),
                    Stats.mean(imbalance, i -> true), secondHalf, imbalance.get(imbalance.size() - 1),
                    Stats.mean(series.spread, i -> true),
                    Stats.maxMinusMean(cumulative), memory, memory / (double) trace.distinctKeys(),
                    latencyMean, Stats.percentile(sorted, 0.50), Stats.percentile(sorted, 0.95),
                    Stats.percentile(sorted, 0.99), sorted.length == 0 ? 0 : sorted[sorted.length - 1],
                    series.queueMax(), Stats.meanInt(series.queueSpread), drainTicks,
                    merger.partialEntries(), countsMatchTrace(), signals, moves, vwFinal, divergent);
        }

        private boolean countsMatchTrace() {
            long[] truth = new long[trace.distinctKeys()];
            for (int id : trace.ids()) {
                truth[id]++;
            }
            if (merger.totals().size() != trace.distinctKeys()) {
                return false;
            }
            for (int k = 0; k < truth.length; k++) {
                if (merger.total(k) != truth[k]) {
                    return false;
                }
            }
            return true;
        }

        private boolean sameTable(ConsistentGrouping a, ConsistentGrouping b) {
            for (int vw = 0; vw < a.virtualWorkers(); vw++) {
                if (a.table().ownerOf(vw) != b.table().ownerOf(vw)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Accumulates the time series column by column. */
    private static final class SeriesBuilder {
        final List<Long> t = new ArrayList<>();
        final List<Double> imbalance = new ArrayList<>();
        final List<Double> cumulative = new ArrayList<>();
        final List<Double> spread = new ArrayList<>();
        final List<double[]> utilisation = new ArrayList<>();
        final List<int[]> queue = new ArrayList<>();
        final List<Integer> queueSpread = new ArrayList<>();
        final List<Double> latencyMean = new ArrayList<>();
        final List<Double> latencySpread = new ArrayList<>();
        final List<Long> memory = new ArrayList<>();
        final List<Long> signals = new ArrayList<>();
        final List<Long> moves = new ArrayList<>();
        final List<int[]> vws = new ArrayList<>();

        void add(long tick, double imb, double cum, double utilSpread, double[] util, int[] queues, Double latMean, Double latSpread,
                 long mem, long sig, long mov, int[] vw) {
            t.add(tick);
            imbalance.add(imb);
            cumulative.add(cum);
            spread.add(utilSpread);
            utilisation.add(util);
            queue.add(queues);
            int max = Arrays.stream(queues).max().orElse(0);
            int min = Arrays.stream(queues).min().orElse(0);
            queueSpread.add(max - min);
            latencyMean.add(latMean);
            latencySpread.add(latSpread);
            memory.add(mem);
            signals.add(sig);
            moves.add(mov);
            vws.add(vw);
        }

        int queueMax() {
            return queue.stream().flatMapToInt(Arrays::stream).max().orElse(0);
        }

        RunResult.Series build(boolean withVirtualWorkers) {
            return new RunResult.Series(t, imbalance, cumulative, spread, utilisation, queue, queueSpread, latencyMean,
                    latencySpread, memory, signals, moves, withVirtualWorkers ? vws : null);
        }
    }
}
