package io.nonstopstorm.migration.worker;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.storm.multilang.BoltMsg;
import org.apache.storm.multilang.ISerializer;
import org.apache.storm.multilang.NoOutputException;
import org.apache.storm.multilang.ShellMsg;
import org.apache.storm.multilang.SpoutMsg;
import org.apache.storm.task.TopologyContext;

/**
 * A shell bolt's multilang serializer with the state handoff's replies taken out on the way in: a message whose
 * command starts with {@code nonstop_} and whose id a request waits for completes that request. It is still
 * returned to the bolt's reader, which ignores commands it does not know (and counts it as a heartbeat).
 * Everything else is the wrapped serializer's.
 */
final class MultilangReplies implements ISerializer {
    static final String PREFIX = "nonstop_";
    private static final long serialVersionUID = 1L;

    private final ISerializer delegate;
    private final transient Map<String, CompletableFuture<ShellMsg>> waiting = new ConcurrentHashMap<>();

    MultilangReplies(ISerializer delegate) {
        this.delegate = delegate;
    }

    /** The reply to the request with this id, once it is read. */
    CompletableFuture<ShellMsg> expect(String id) {
        return waiting.computeIfAbsent(id, k -> new CompletableFuture<>());
    }

    /** A request given up (timed out): its late reply is ignored. */
    void forget(String id) {
        waiting.remove(id);
    }

    @Override
    public ShellMsg readShellMsg() throws IOException, NoOutputException {
        ShellMsg m = delegate.readShellMsg();
        String command = m.getCommand();
        if (command != null && command.startsWith(PREFIX) && m.getId() != null) {
            CompletableFuture<ShellMsg> f = waiting.remove(m.getId().toString());
            if (f != null) {
                f.complete(m);
            }
        }
        return m;
    }

    @Override
    public void initialize(OutputStream processIn, InputStream processOut) {
        delegate.initialize(processIn, processOut);
    }

    @Override
    public Number connect(Map<String, Object> conf, TopologyContext context) throws IOException, NoOutputException {
        return delegate.connect(conf, context);
    }

    @Override
    public void writeBoltMsg(BoltMsg msg) throws IOException {
        delegate.writeBoltMsg(msg);
    }

    @Override
    public void writeSpoutMsg(SpoutMsg msg) throws IOException {
        delegate.writeSpoutMsg(msg);
    }

    @Override
    public void writeTaskIds(List<Integer> taskIds) throws IOException {
        delegate.writeTaskIds(taskIds);
    }
}
