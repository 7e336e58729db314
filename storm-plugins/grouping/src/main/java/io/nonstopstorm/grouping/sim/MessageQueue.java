package io.nonstopstorm.grouping.sim;

/** A worker's unbounded FIFO input queue of (arrival tick, source) pairs, without boxing. */
final class MessageQueue {
    private long[] arrival = new long[64];
    private int[] source = new int[64];
    private int head;
    private int size;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    void add(long arrivalTick, int sourceIndex) {
        if (size == arrival.length) {
            grow();
        }
        int at = (head + size) % arrival.length;
        arrival[at] = arrivalTick;
        source[at] = sourceIndex;
        size++;
    }

    long headArrival() {
        return arrival[head];
    }

    int headSource() {
        return source[head];
    }

    void removeHead() {
        head = (head + 1) % arrival.length;
        size--;
    }

    private void grow() {
        long[] a = new long[arrival.length * 2];
        int[] s = new int[arrival.length * 2];
        for (int i = 0; i < size; i++) {
            a[i] = arrival[(head + i) % arrival.length];
            s[i] = source[(head + i) % arrival.length];
        }
        arrival = a;
        source = s;
        head = 0;
    }
}
