package org.apache.storm.daemon.worker;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.ListIterator;
import java.util.Spliterator;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * The worker's sorted list of local task ids, safe to change while other threads read it. Storm types
 * the field as {@code ArrayList} and hands the very same object to every topology context, so it is
 * replaced by this subclass: all reads go to an immutable snapshot, every change publishes a new one
 * (copy-on-write). The inherited array is never used.
 */
final class LocalTaskList extends ArrayList<Integer> {
    private static final long serialVersionUID = 1L;
    private transient volatile List<Integer> snapshot;

    LocalTaskList(Collection<Integer> initial) {
        super(0);
        this.snapshot = sortedCopy(initial);
    }

    private static List<Integer> sortedCopy(Collection<Integer> c) {
        return List.copyOf(new TreeSet<>(c));
    }

    /** Adds and removes in one step: readers never see a half-applied change. */
    synchronized void update(Collection<Integer> add, Collection<Integer> remove) {
        TreeSet<Integer> next = new TreeSet<>(snapshot);
        next.removeAll(remove);
        next.addAll(add);
        snapshot = List.copyOf(next);
    }

    // ---- reads: always from the snapshot ----

    @Override
    public int size() {
        return snapshot.size();
    }

    @Override
    public boolean isEmpty() {
        return snapshot.isEmpty();
    }

    @Override
    public boolean contains(Object o) {
        return snapshot.contains(o);
    }

    @Override
    public int indexOf(Object o) {
        return snapshot.indexOf(o);
    }

    @Override
    public int lastIndexOf(Object o) {
        return snapshot.lastIndexOf(o);
    }

    @Override
    public Integer get(int index) {
        return snapshot.get(index);
    }

    @Override
    public Object[] toArray() {
        return snapshot.toArray();
    }

    @Override
    public <T> T[] toArray(T[] a) {
        return snapshot.toArray(a);
    }

    @Override
    public Iterator<Integer> iterator() {
        return snapshot.iterator();
    }

    @Override
    public ListIterator<Integer> listIterator() {
        return snapshot.listIterator();
    }

    @Override
    public ListIterator<Integer> listIterator(int index) {
        return snapshot.listIterator(index);
    }

    @Override
    public List<Integer> subList(int fromIndex, int toIndex) {
        return snapshot.subList(fromIndex, toIndex);
    }

    @Override
    public void forEach(Consumer<? super Integer> action) {
        snapshot.forEach(action);
    }

    @Override
    public Spliterator<Integer> spliterator() {
        return snapshot.spliterator();
    }

    @Override
    public Stream<Integer> stream() {
        return snapshot.stream();
    }

    @Override
    public boolean containsAll(Collection<?> c) {
        return snapshot.containsAll(c);
    }

    @Override
    public boolean equals(Object o) {
        return snapshot.equals(o);
    }

    @Override
    public int hashCode() {
        return snapshot.hashCode();
    }

    @Override
    public String toString() {
        return snapshot.toString();
    }

    @Override
    public Object clone() {
        return new ArrayList<>(snapshot);
    }

    // ---- writes: copy-on-write, so a stray caller cannot corrupt the snapshot ----

    @Override
    public synchronized boolean add(Integer t) {
        update(List.of(t), List.of());
        return true;
    }

    @Override
    public synchronized boolean addAll(Collection<? extends Integer> c) {
        update(new ArrayList<>(c), List.of());
        return !c.isEmpty();
    }

    @Override
    public synchronized boolean remove(Object o) {
        boolean had = snapshot.contains(o);
        if (o instanceof Integer i) {
            update(List.of(), List.of(i));
        }
        return had;
    }

    @Override
    @SuppressWarnings("unchecked")
    public synchronized boolean removeAll(Collection<?> c) {
        int before = snapshot.size();
        List<Integer> drop = new ArrayList<>();
        for (Object o : c) {
            if (o instanceof Integer i) {
                drop.add(i);
            }
        }
        update(List.of(), drop);
        return snapshot.size() != before;
    }

    @Override
    public synchronized boolean removeIf(Predicate<? super Integer> filter) {
        List<Integer> drop = snapshot.stream().filter(filter).toList();
        update(List.of(), drop);
        return !drop.isEmpty();
    }

    @Override
    public synchronized void clear() {
        snapshot = List.of();
    }

    @Override
    public void sort(Comparator<? super Integer> c) {
        // Always sorted ascending, which is the only order Storm asks for.
    }

    @Override
    public Integer set(int index, Integer element) {
        throw new UnsupportedOperationException("local task ids change only through migration");
    }

    @Override
    public void add(int index, Integer element) {
        throw new UnsupportedOperationException("local task ids change only through migration");
    }

    @Override
    public Integer remove(int index) {
        throw new UnsupportedOperationException("local task ids change only through migration");
    }

    @Override
    public boolean addAll(int index, Collection<? extends Integer> c) {
        throw new UnsupportedOperationException("local task ids change only through migration");
    }

    @Override
    public boolean retainAll(Collection<?> c) {
        throw new UnsupportedOperationException("local task ids change only through migration");
    }

    @Override
    public void replaceAll(UnaryOperator<Integer> operator) {
        throw new UnsupportedOperationException("local task ids change only through migration");
    }
}
