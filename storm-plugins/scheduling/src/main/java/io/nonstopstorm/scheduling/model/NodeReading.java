package io.nonstopstorm.scheduling.model;

/**
 * What the metrics plane last measured on a node (its {@code node} section).
 *
 * @param cpuCores          CPUs of the node
 * @param busyCores         CPU in use on the node by all processes, in cores
 * @param netBytesPerSecond network use: the larger of received and sent bytes/s over its non-loopback interfaces
 * @param atMillis          end of the measurement window, ms since the epoch
 */
public record NodeReading(double cpuCores, double busyCores, double netBytesPerSecond, long atMillis) {
}
