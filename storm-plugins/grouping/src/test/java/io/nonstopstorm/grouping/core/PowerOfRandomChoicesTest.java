package io.nonstopstorm.grouping.core;

import io.nonstopstorm.grouping.sim.KeyTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.BitSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PowerOfRandomChoicesTest {

    @ParameterizedTest(name = "eps={0}, zipf={1}, bins={2}")
    @CsvSource({"0.0, 2.0, 20", "0.05, 1.5, 50", "0.2, 1.0, 100", "0.5, 2.0, 10", "1.0, 0.5, 30"})
    void noBinEverExceedsItsSoftCapacityPlusOne(double epsilon, double exponent, int bins) {
        KeyTrace trace = KeyTrace.zipf(60_000, 500, exponent, 11);
        PowerOfRandomChoices porc = new PowerOfRandomChoices(bins, epsilon, 5);
        for (int i = 0; i < trace.messages(); i++) {
            int bin = porc.choose(trace.bytes()[trace.ids()[i]]);
            double bound = (1 + epsilon) * porc.total() / bins + 1;
            assertTrue(porc.load(bin) <= bound,
                    "message " + i + ": bin " + bin + " has " + porc.load(bin) + " > bound " + bound);
        }
        long sum = 0;
        for (int b = 0; b < bins; b++) {
            sum += porc.load(b);
            assertTrue(porc.load(b) <= (1 + epsilon) * porc.total() / bins + 1);
        }
        assertEquals(trace.messages(), sum);
    }

    @Test
    void lightKeysStayOnTheirPrincipalBin() {
        // near-uniform stream over many keys: once the average is past a few messages no bin fills up,
        // so (apart from the first messages, when capacity is still tiny) a key takes its first choice
        KeyTrace trace = KeyTrace.zipf(20_000, 50_000, 0.01, 3);
        PowerOfRandomChoices porc = new PowerOfRandomChoices(10, 1.0, 9);
        int spilled = 0;
        for (int i = 0; i < trace.messages(); i++) {
            byte[] key = trace.bytes()[trace.ids()[i]];
            if (porc.choose(key) != porc.principalBin(key)) {
                spilled++;
            }
        }
        assertTrue(spilled < trace.messages() / 200, spilled + " of " + trace.messages() + " messages left their principal bin");
    }

    @Test
    void aHeavyKeySpillsOverFewBinsNotAll() {
        PowerOfRandomChoices porc = new PowerOfRandomChoices(50, 0.5, 2);
        byte[] heavy = "heavy".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        BitSet used = new BitSet();
        for (int i = 0; i < 10_000; i++) {
            // the heavy key is 1 message in 5; the rest are distinct light keys
            byte[] key = i % 5 == 0 ? heavy : ("light-" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            int bin = porc.choose(key);
            if (key == heavy) {
                used.set(bin);
            }
        }
        // 20 % of the stream at a per-bin capacity of 1.5/50 = 3 % needs about 7 bins
        assertTrue(used.cardinality() >= 6 && used.cardinality() <= 20, "heavy key on " + used.cardinality() + " bins");
    }

    @Test
    void largerEpsilonTradesBalanceForMemory() {
        KeyTrace trace = KeyTrace.zipf(100_000, 2_000, 1.2, 21);
        Outcome tight = outcome(trace, 0.02);
        Outcome loose = outcome(trace, 1.0);
        assertTrue(tight.imbalance < loose.imbalance, "tight " + tight.imbalance + " vs loose " + loose.imbalance);
        assertTrue(loose.memory < tight.memory, "tight " + tight.memory + " vs loose " + loose.memory);
    }

    @Test
    void rejectsBadParameters() {
        assertThrows(IllegalArgumentException.class, () -> new PowerOfRandomChoices(0, 0.1, 1));
        assertThrows(IllegalArgumentException.class, () -> new PowerOfRandomChoices(4, -0.1, 1));
        assertThrows(IllegalArgumentException.class, () -> new PowerOfRandomChoices(4, Double.NaN, 1));
    }

    private record Outcome(double imbalance, long memory) {
    }

    private static Outcome outcome(KeyTrace trace, double epsilon) {
        int bins = 40;
        PowerOfRandomChoices porc = new PowerOfRandomChoices(bins, epsilon, 1);
        BitSet[] seen = new BitSet[bins];
        for (int b = 0; b < bins; b++) {
            seen[b] = new BitSet();
        }
        for (int i = 0; i < trace.messages(); i++) {
            int key = trace.ids()[i];
            seen[porc.choose(trace.bytes()[key])].set(key);
        }
        long max = 0;
        long memory = 0;
        for (int b = 0; b < bins; b++) {
            max = Math.max(max, porc.load(b));
            memory += seen[b].cardinality();
        }
        return new Outcome(max - (double) porc.total() / bins, memory);
    }
}
