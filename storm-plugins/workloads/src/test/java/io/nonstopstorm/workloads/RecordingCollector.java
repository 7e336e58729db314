package io.nonstopstorm.workloads;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.storm.spout.CheckpointSpout;
import org.apache.storm.task.IOutputCollector;
import org.apache.storm.tuple.Tuple;

/** A bolt's collector for unit tests: emits go nowhere; acks and fails of data tuples are kept by root ids. */
public final class RecordingCollector implements IOutputCollector {
    public final List<Map<Long, Long>> acked = new ArrayList<>();
    public final List<Map<Long, Long>> failed = new ArrayList<>();

    @Override
    public List<Integer> emit(String streamId, Collection<Tuple> anchors, List<Object> tuple) {
        return List.of();
    }

    @Override
    public void emitDirect(int taskId, String streamId, Collection<Tuple> anchors, List<Object> tuple) {
    }

    @Override
    public void ack(Tuple input) {
        if (!CheckpointSpout.isCheckpoint(input)) {
            acked.add(input.getMessageId().getAnchorsToIds());
        }
    }

    @Override
    public void fail(Tuple input) {
        failed.add(input.getMessageId().getAnchorsToIds());
    }

    @Override
    public void resetTimeout(Tuple input) {
    }

    @Override
    public void flush() {
    }

    @Override
    public void reportError(Throwable error) {
    }
}
