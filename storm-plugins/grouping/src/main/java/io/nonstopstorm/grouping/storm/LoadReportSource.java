package io.nonstopstorm.grouping.storm;

import java.util.List;

/** Where a source finds the workers' current load reports: the metrics documents of one topology. */
@FunctionalInterface
interface LoadReportSource {
    /** The current documents (one per worker process); empty when there are none yet. */
    List<String> read() throws Exception;
}
