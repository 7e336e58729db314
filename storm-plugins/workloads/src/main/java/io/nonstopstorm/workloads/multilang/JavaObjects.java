package io.nonstopstorm.workloads.multilang;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.List;

/**
 * Instantiates a Java class named in a spec with the spec's basic-typed constructor arguments
 * (JSON numbers, strings, booleans, lists), choosing a public constructor whose parameters accept them.
 */
final class JavaObjects {
    private JavaObjects() {
    }

    static <T> T create(String component, String className, List<Object> args, Class<T> expected) {
        Class<?> cls;
        try {
            cls = Class.forName(className);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new SpecException(component, "class " + className + " not found in the topology jar");
        }
        if (!expected.isAssignableFrom(cls)) {
            throw new SpecException(component, className + " is not a " + expected.getSimpleName());
        }
        for (Constructor<?> c : cls.getConstructors()) {
            Object[] converted = convert(c.getParameterTypes(), args);
            if (converted == null) {
                continue;
            }
            try {
                return expected.cast(c.newInstance(converted));
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause() != null ? e.getCause() : e;
                throw new SpecException(component, "new " + cls.getSimpleName() + args + " failed: " + cause.getMessage());
            } catch (ReflectiveOperationException e) {
                throw new SpecException(component, "cannot instantiate " + className + ": " + e);
            }
        }
        throw new SpecException(component, className + " has no public constructor taking " + args);
    }

    private static Object[] convert(Class<?>[] types, List<Object> args) {
        if (types.length != args.size()) {
            return null;
        }
        Object[] out = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            Object v = convert(types[i], args.get(i));
            if (v == NO) {
                return null;
            }
            out[i] = v;
        }
        return out;
    }

    private static final Object NO = new Object();

    private static Object convert(Class<?> t, Object v) {
        if (v == null) {
            return t.isPrimitive() ? NO : null;
        }
        if (v instanceof Number n) {
            boolean integral = n.doubleValue() == Math.floor(n.doubleValue());
            if ((t == int.class || t == Integer.class) && integral) {
                return n.intValue();
            }
            if ((t == long.class || t == Long.class) && integral) {
                return n.longValue();
            }
            if (t == double.class || t == Double.class) {
                return n.doubleValue();
            }
            if (t == float.class || t == Float.class) {
                return n.floatValue();
            }
            return NO;
        }
        if (v instanceof Boolean b) {
            return t == boolean.class || t == Boolean.class ? b : NO;
        }
        if (v instanceof String s) {
            return t == String.class ? s : NO;
        }
        if (v instanceof List<?> l) {
            if (t.isAssignableFrom(List.class)) {
                return l;
            }
            if (t == String[].class && l.stream().allMatch(x -> x instanceof String)) {
                return l.toArray(new String[0]);
            }
            return NO;
        }
        return NO;
    }
}
