package io.nonstopstorm.workloads.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.util.HashMap;
import java.util.Map;
import org.apache.storm.serialization.SerializationFactory;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

class KeepBoltTest {
    @Test
    void theBallastHasTheAskedSizeInValuesOfTheAskedSize() {
        HashMap<String, byte[]> b = Ballast.of(10 * 64 + 5, 64);
        assertEquals(11, b.size());
        assertEquals(5, b.get(Ballast.PREFIX + 10).length);
        assertEquals(645, Ballast.size(b.entrySet()));
        assertEquals(0, Ballast.of(0, 64).size());
        assertThrows(IllegalArgumentException.class, () -> Ballast.of(10, 0));
    }

    @Test
    void countsAndBallastTravelThroughTheTopologysKryoIntoAnotherInstance() {
        HashMap<String, Object> state = new HashMap<>();
        state.put(KeepBolt.COUNTS, new HashMap<>(Map.of("a sentence", 3L)));
        state.put(KeepBolt.BALLAST, Ballast.of(200_000, 4096));
        KeepBolt old = new KeepBolt(new Ballast.Spec(200_000, 4096));
        old.restoreState(state);

        Kryo kryo = SerializationFactory.getKryo(Utils.readDefaultConfig());   // registrations required, as in a worker
        Output out = new Output(1024, -1);
        kryo.writeClassAndObject(out, old.snapshotState());
        @SuppressWarnings("unchecked")
        HashMap<String, Object> received = (HashMap<String, Object>) kryo.readClassAndObject(new Input(out.toBytes()));

        KeepBolt moved = new KeepBolt(new Ballast.Spec(200_000, 4096));
        moved.restoreState(received);
        HashMap<String, Object> again = moved.snapshotState();
        assertEquals(Map.of("a sentence", 3L), again.get(KeepBolt.COUNTS));
        @SuppressWarnings("unchecked")
        HashMap<String, byte[]> ballast = (HashMap<String, byte[]>) again.get(KeepBolt.BALLAST);
        assertEquals(200_000, Ballast.size(ballast.entrySet()));
        assertArrayEquals(Ballast.of(200_000, 4096).get(Ballast.PREFIX + 7), ballast.get(Ballast.PREFIX + 7));
    }
}
