package io.nonstopstorm.ui;

import java.util.List;
import java.util.Map;

/** Thrift leaves unset containers null; these read them as empty. */
final class Thrift {

    private Thrift() {
    }

    static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }

    static <K, V> Map<K, V> map(Map<K, V> m) {
        return m == null ? Map.of() : m;
    }
}
