package io.nonstopstorm.migration.worker;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apache.storm.Constants;
import org.apache.storm.multilang.BoltMsg;
import org.apache.storm.multilang.ISerializer;
import org.apache.storm.multilang.ShellMsg;

/**
 * Every reflective access to Storm's {@code ShellBolt} and {@code ShellProcess}, in one place: the bolt's
 * subprocess and its queue of pending writes, and the process's serializer. Which fields, is checked once when
 * this class loads ({@link #unavailable()}): in a Storm version where one is missing or of another type, no
 * multilang bolt is handed over and every one moves as before.
 *
 * <p>{@link #attach} puts {@link MultilangReplies} around the subprocess's serializer, so the replies to the
 * handoff's requests reach the request that waits for them. A request travels as a pseudo-tuple through the
 * bolt's own queue of pending writes, like Storm's heartbeat: its writer thread writes it behind every tuple
 * the executor gave the bolt before, and the subprocess, which reads its input in order, answers it only after
 * it processed those tuples (the safe point: no tuple the executor handed over is still in flight in it).
 */
public final class ShellBoltAccess {
    static final String SHELL_BOLT = "org.apache.storm.task.ShellBolt";
    static final String SHELL_PROCESS = "org.apache.storm.utils.ShellProcess";
    static final String QUEUE = "org.apache.storm.utils.ShellBoltMessageQueue";

    /** This Storm's reader, or why it has none (checked once, when the class loads). */
    public static final StormReflection.Loaded<ShellBoltAccess> THIS_STORM = load(StormReflection::stormClass);
    private static final AtomicLong IDS = new AtomicLong();
    private static final String HEARTBEAT_STREAM = "__heartbeat";

    private final Class<?> shellBolt;
    private final Field process;
    private final Field pendingWrites;
    private final Field serializer;
    private final Method putBoltMsg;

    private ShellBoltAccess(Function<String, Class<?>> classes) throws ReflectiveOperationException {
        shellBolt = classes.apply(SHELL_BOLT);
        Class<?> processClass = classes.apply(SHELL_PROCESS);
        Class<?> queueClass = classes.apply(QUEUE);
        process = StormReflection.field(shellBolt, "process", processClass);
        pendingWrites = StormReflection.field(shellBolt, "pendingWrites", queueClass);
        serializer = StormReflection.field(processClass, "serializer", ISerializer.class);
        putBoltMsg = queueClass.getDeclaredMethod("putBoltMsg", BoltMsg.class);
        putBoltMsg.setAccessible(true);
    }

    /** Resolves every field through {@code classes}, or says which one is missing. */
    static StormReflection.Loaded<ShellBoltAccess> load(Function<String, Class<?>> classes) {
        return StormReflection.load(() -> new ShellBoltAccess(classes), "ShellBolt", "multilang state handoff");
    }

    /** Whether {@code taskObject} is a Storm shell bolt (or a subclass of one). */
    public boolean wraps(Object taskObject) {
        return shellBolt.isInstance(taskObject);
    }

    /**
     * Puts the reply-catching serializer around a prepared shell bolt's subprocess (once; a second call finds it).
     *
     * @throws IllegalStateException when the bolt has no subprocess (not prepared)
     */
    public Channel attach(Object bolt) {
        try {
            Object p = process.get(bolt);
            Object queue = pendingWrites.get(bolt);
            if (p == null || queue == null) {
                throw new IllegalStateException("the shell bolt has no subprocess yet");
            }
            synchronized (p) {
                ISerializer s = (ISerializer) serializer.get(p);
                MultilangReplies replies;
                if (s instanceof MultilangReplies r) {
                    replies = r;
                } else {
                    replies = new MultilangReplies(s);
                    serializer.set(p, replies);
                    ping(queue);
                }
                return new Channel(this, queue, replies);
            }
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("reading the shell bolt failed: " + e.getMessage(), e);
        }
    }

    /**
     * The bolt's reader may be waiting inside the serializer it had before: a heartbeat (which every multilang
     * library answers with {@code sync}) makes that call return with the first message after the swap, so every
     * reply to a request written later is read through the wrapper.
     */
    private void ping(Object queue) {
        BoltMsg m = new BoltMsg();
        m.setId("nonstop-ping-" + IDS.incrementAndGet());
        m.setStream(HEARTBEAT_STREAM);
        m.setTask(Constants.SYSTEM_TASK_ID);
        m.setTuple(List.of());
        try {
            putBoltMsg.invoke(queue, m);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("pinging the subprocess failed: " + e, e);
        }
    }

    /** Requests to one shell bolt's subprocess, each answered by a reply with the request's id. */
    public static final class Channel {
        private final ShellBoltAccess access;
        private final Object queue;
        private final MultilangReplies replies;

        Channel(ShellBoltAccess access, Object queue, MultilangReplies replies) {
            this.access = access;
            this.queue = queue;
            this.replies = replies;
        }

        /**
         * Writes a pseudo-tuple on {@code stream} (task -1, as Storm's heartbeat) behind every write already
         * queued, and waits for the subprocess's reply to it.
         *
         * @throws IllegalStateException no reply within {@code timeoutMs}, or the request could not be queued
         */
        public ShellMsg request(String stream, List<Object> values, long timeoutMs) {
            String id = "nonstop-" + IDS.incrementAndGet();
            CompletableFuture<ShellMsg> reply = replies.expect(id);
            BoltMsg m = new BoltMsg();
            m.setId(id);
            m.setStream(stream);
            m.setTask(Constants.SYSTEM_TASK_ID);
            m.setTuple(values);
            try {
                access.putBoltMsg.invoke(queue, m);
                return reply.get(timeoutMs, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                throw new IllegalStateException("the subprocess did not answer " + stream + " within " + timeoutMs
                                                + " ms", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for the subprocess's answer to " + stream, e);
            } catch (ExecutionException | ReflectiveOperationException e) {
                throw new IllegalStateException("requesting " + stream + " failed: " + e, e);
            } finally {
                replies.forget(id);
            }
        }
    }
}
