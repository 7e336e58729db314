"""A real multi-node Storm cluster on one machine: ZooKeeper, Nimbus, UI REST and N supervisors,
each a separate process; nodes are distinct loopback addresses or network namespaces."""
