package io.nonstopstorm.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfValuesTest {
    private static final Map<String, Object> CONF = Map.of(
        "yaml.int", 7, "text.int", " 12 ", "yaml.double", 2.5, "text.double", "0.25", "big", "9000000000",
        "yes", true, "text.no", " FALSE ", "bad", "lots");

    @Test
    void absentKeysGiveTheDefault() {
        assertEquals(3, ConfValues.integer(CONF, "none", 3));
        assertEquals(4L, ConfValues.wholeNumber(CONF, "none", 4));
        assertEquals(0.5, ConfValues.decimal(CONF, "none", 0.5));
        assertTrue(ConfValues.flag(CONF, "none", true));
    }

    @Test
    void yamlValuesAndTheirStringFormsAreRead() {
        assertEquals(7, ConfValues.integer(CONF, "yaml.int", 0));
        assertEquals(12, ConfValues.integer(CONF, "text.int", 0));
        assertEquals(9_000_000_000L, ConfValues.wholeNumber(CONF, "big", 0));
        assertEquals(2.5, ConfValues.decimal(CONF, "yaml.double", 0));
        assertEquals(0.25, ConfValues.decimal(CONF, "text.double", 0));
        assertEquals(7.0, ConfValues.decimal(CONF, "yaml.int", 0));
        assertTrue(ConfValues.flag(CONF, "yes", false));
        assertFalse(ConfValues.flag(CONF, "text.no", true));
    }

    @Test
    void badValuesNameTheKeyTheKindAndTheValue() {
        assertEquals("bad must be an integer, got 'lots'",
            assertThrows(IllegalArgumentException.class, () -> ConfValues.integer(CONF, "bad", 0)).getMessage());
        assertEquals("big must be an integer, got '9000000000'",
            assertThrows(IllegalArgumentException.class, () -> ConfValues.integer(CONF, "big", 0)).getMessage());
        assertEquals("text.double must be a whole number, got '0.25'",
            assertThrows(IllegalArgumentException.class, () -> ConfValues.wholeNumber(CONF, "text.double", 0)).getMessage());
        assertEquals("bad must be a number, got 'lots'",
            assertThrows(IllegalArgumentException.class, () -> ConfValues.decimal(CONF, "bad", 0)).getMessage());
        assertEquals("bad must be true or false, got 'lots'",
            assertThrows(IllegalArgumentException.class, () -> ConfValues.flag(CONF, "bad", false)).getMessage());
    }
}
