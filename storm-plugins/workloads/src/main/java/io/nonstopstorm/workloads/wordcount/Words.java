package io.nonstopstorm.workloads.wordcount;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How a sentence splits into words, identical in the Java and Python bolts and in the test's direct
 * count: lower-cased, split on runs of ASCII whitespace (the prepared corpus is ASCII).
 */
public final class Words {
    private Words() {
    }

    public static List<String> split(String sentence) {
        List<String> out = new ArrayList<>();
        for (String w : sentence.toLowerCase(Locale.ROOT).split("[ \\t\\n\\x0B\\f\\r]+")) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
    }
}
