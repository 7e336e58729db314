package io.nonstopstorm.migration.worker;

import java.lang.reflect.Field;
import java.util.Optional;

/**
 * What the readers of Storm's private fields share ({@link StatefulBoltAccess}, {@link ShellBoltAccess}): a field
 * looked up by name and checked by type, Storm's classes found without initialising them, and the outcome of a
 * reader's one-time check against this Storm (the reader, or why there is none).
 */
public final class StormReflection {
    private StormReflection() {
    }

    /** A reader, or why this Storm has none (a field, method or class it needs is missing or of another type). */
    public record Loaded<T>(T access, String unavailable) {
        /** The reader for this Storm, if it has one. */
        public Optional<T> reader() {
            return Optional.ofNullable(access);
        }

        /** Why this Storm has no reader, or empty when it has one. */
        public Optional<String> why() {
            return Optional.ofNullable(unavailable);
        }
    }

    /** Builds a reader; throws when this Storm lacks what it reads. */
    interface Reader<T> {
        T build() throws ReflectiveOperationException;
    }

    /** The reader {@code reader} builds, or "this Storm's {@code what} is not the one the {@code user} reads (...)". */
    static <T> Loaded<T> load(Reader<T> reader, String what, String user) {
        try {
            return new Loaded<>(reader.build(), null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return new Loaded<>(null, "this Storm's " + what + " is not the one the " + user + " reads ("
                                      + e.getClass().getSimpleName() + ": " + e.getMessage() + ")");
        }
    }

    /** {@code owner}'s declared field {@code name}, made accessible, if its type is a {@code type}. */
    static Field field(Class<?> owner, String name, Class<?> type) throws NoSuchFieldException {
        Field f = owner.getDeclaredField(name);
        if (!type.isAssignableFrom(f.getType())) {
            throw new NoSuchFieldException(owner.getName() + "." + name + " is a " + f.getType().getName()
                                           + ", expected a " + type.getName());
        }
        f.setAccessible(true);
        return f;
    }

    /** One of Storm's classes, not initialised; an unchecked exception when this Storm has none of that name. */
    static Class<?> stormClass(String name) {
        try {
            return Class.forName(name, false, StormReflection.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("class " + name + " not found");
        }
    }
}
