package io.nonstopstorm.workloads.wordcount;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.util.HashMap;
import java.util.Map;
import org.apache.storm.serialization.SerializationFactory;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

class WordCountBoltHandoffTest {

    @Test
    void theCountsTravelThroughTheTopologysKryoIntoAnotherInstance() {
        WordCountBolt old = new WordCountBolt();
        old.restoreState(new HashMap<>(Map.of("storm", 3L, "nonstop", 1L)));
        HashMap<String, Long> snapshot = old.snapshotState();

        // As the worker does it: the topology's Kryo (registrations required), class and object.
        Kryo kryo = SerializationFactory.getKryo(Utils.readDefaultConfig());
        Output out = new Output(1024, -1);
        kryo.writeClassAndObject(out, snapshot);
        @SuppressWarnings("unchecked")
        HashMap<String, Long> received = (HashMap<String, Long>) kryo.readClassAndObject(new Input(out.toBytes()));

        WordCountBolt moved = new WordCountBolt();
        moved.restoreState(received);
        assertEquals(Map.of("storm", 3L, "nonstop", 1L), moved.snapshotState());
    }

    @Test
    void theSnapshotIsACopyTheOldInstanceCannotChangeAfterwards() {
        WordCountBolt bolt = new WordCountBolt();
        HashMap<String, Long> given = new HashMap<>(Map.of("a", 1L));
        bolt.restoreState(given);
        given.put("a", 99L);
        HashMap<String, Long> snapshot = bolt.snapshotState();
        snapshot.put("b", 5L);
        assertEquals(Map.of("a", 1L), bolt.snapshotState());
    }
}
