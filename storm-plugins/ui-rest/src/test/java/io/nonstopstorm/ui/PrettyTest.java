package io.nonstopstorm.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import org.junit.jupiter.api.Test;

class PrettyTest {

    @Test
    void durationDropsOnlyLeadingZeroUnits() {
        assertEquals("59s", Pretty.duration(59));
        assertEquals("10m 0s", Pretty.duration(600));
        assertEquals("3h 0m 0s", Pretty.duration(10800));
        assertEquals("1d 0h 0m 0s", Pretty.duration(86400));
        assertEquals("2d 1h 2m 3s", Pretty.duration(2 * 86400 + 3600 + 123));
        assertEquals("0s", Pretty.duration(0));
    }

    @Test
    void decimalHasThreePlacesAndAPointInAnyLocale() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            assertEquals("0.003", Pretty.decimal(0.0034));
            assertEquals("12.346", Pretty.decimal(12.3456));
        } finally {
            Locale.setDefault(before);
        }
        assertEquals("0", Pretty.decimal(null));
    }

    @Test
    void executorIdNamesTaskRange() {
        assertEquals("[3-5]", Pretty.executorId(3, 5));
    }

    @Test
    void windowParsingAcceptsOnlyNimbusWindows() {
        assertEquals(StatWindow.ALL_TIME, StatWindow.parse(null).orElseThrow());
        assertEquals(StatWindow.ALL_TIME, StatWindow.parse("").orElseThrow());
        assertEquals("600", StatWindow.parse("600").orElseThrow());
        assertEquals("86400", StatWindow.parse("86400").orElseThrow());
        assertTrue(StatWindow.parse("601").isEmpty());
        assertTrue(StatWindow.parse("all-time").isEmpty());
        assertEquals("All time", StatWindow.hint(StatWindow.ALL_TIME));
        assertEquals("10m 0s", StatWindow.hint("600"));
    }
}
