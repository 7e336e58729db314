package io.nonstopstorm.metrics.publish;

/** Where a worker's documents go (ZooKeeper in a cluster, a list in tests). */
public interface DocumentSink extends AutoCloseable {
    void start();

    /** @return whether the document reached its destination (a failure is retried by the next window) */
    boolean publish(String json);

    @Override
    void close();
}
