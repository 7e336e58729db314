package io.nonstopstorm.migration.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What a worker's outbound flush would lose. A local sender whose view of the local queues predates an
 * executor's arrival in its worker serialises tuples for the arriving task onto the remote path; by the
 * time the worker's transfer thread sends them, the connection refresh may map that task to this very
 * worker, for which there is no connection (a worker never connects to itself), and Storm's drainer drops
 * them. {@link #take} takes such messages out of the per-task bundles, to be delivered locally, and counts
 * the messages Storm cannot send for another reason (the task has no address, or its worker no
 * connection), so that they are not lost uncounted.
 */
public final class SelfBound {
    private SelfBound() {
    }

    /**
     * @param own        messages for tasks routed to this worker itself, taken out of their bundles
     * @param unsendable messages left in the bundles that the drainer will drop
     */
    public record Split<M>(List<M> own, int unsendable) {
    }

    /**
     * @param bundles    outbound messages per destination task; bundles routed to {@code self} are emptied
     * @param taskToNode the routing the flush sends by
     * @param self       this worker's own address
     * @param connected  whether the worker has a connection to an address
     */
    public static <M, N> Split<M> take(Map<Integer, ? extends List<M>> bundles, Map<Integer, N> taskToNode, N self,
                                       Predicate<N> connected) {
        List<M> own = null;
        int unsendable = 0;
        for (Map.Entry<Integer, ? extends List<M>> e : bundles.entrySet()) {
            List<M> msgs = e.getValue();
            if (msgs.isEmpty()) {
                continue;
            }
            N node = taskToNode.get(e.getKey());
            if (self.equals(node)) {
                if (own == null) {
                    own = new ArrayList<>();
                }
                own.addAll(msgs);
                msgs.clear();
            } else if (node == null || !connected.test(node)) {
                unsendable += msgs.size();
            }
        }
        return new Split<>(own == null ? List.of() : own, unsendable);
    }
}
