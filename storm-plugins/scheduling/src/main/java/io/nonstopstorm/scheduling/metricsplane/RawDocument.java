package io.nonstopstorm.scheduling.metricsplane;

/**
 * A document as read from ZooKeeper.
 *
 * @param path    its znode, {@code <root>/<topology-id>/<host>-<port>}
 * @param json    its content
 * @param version what changes whenever the content is rewritten (the znode's modifying zxid), so a bad
 *                document is reported once per version rather than every round
 */
public record RawDocument(String path, String json, long version) {
}
