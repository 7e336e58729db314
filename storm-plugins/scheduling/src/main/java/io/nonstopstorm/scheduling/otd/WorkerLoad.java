package io.nonstopstorm.scheduling.otd;

/**
 * What OTD knows of one worker.
 *
 * @param worker  worker id, e.g. "host:port"
 * @param node    the node (supervisor) it runs on
 * @param cpu     CPU use as a share (0..1) of what the worker may use
 * @param queue   summed receive-queue length of its executors
 */
public record WorkerLoad(String worker, String node, double cpu, long queue) {
}
