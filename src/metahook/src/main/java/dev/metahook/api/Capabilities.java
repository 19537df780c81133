package dev.metahook.api;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Optional;

/**
 * The capabilities of a registered controller ({@link Cleaner}, {@link DecoratorCleaner}, {@link Customizer},
 * {@link StalledHandler}), taken as calls on the registration's parent type. A capability is found by
 * {@code instanceof}, which cannot see its type argument; so registration reads the type argument the
 * controller's class declares and refuses a capability of another parent type, and from then on the
 * capability is called with the registration's type.
 */
final class Capabilities {
    private static final List<Class<?>> ALL = List.of(Cleaner.class, DecoratorCleaner.class, Customizer.class, StalledHandler.class);

    private Capabilities() {
    }

    /**
     * Refuses a controller with a capability whose parent type its class declares as one the registration's
     * type is not (a {@code Cleaner<Database, ?>} on a controller of {@code WebApp}s): called, it would fail
     * with a ClassCastException on every call.
     */
    static void check(String name, Object controller, Class<?> type) {
        for (Class<?> capability : ALL) {
            if (!capability.isInstance(controller)) {
                continue;
            }
            Class<?> declared = parentTypeOf(controller.getClass(), capability);
            if (declared != null && !declared.isAssignableFrom(type)) {
                throw new IllegalArgumentException("controller " + name + ": it is registered for " + type.getName() + ", but "
                        + controller.getClass().getName() + " is a " + capability.getSimpleName() + " of " + declared.getName()
                        + "; a controller's capabilities take its own parent type");
            }
        }
    }

    /**
     * The controller as the capability, called with parents of the registration's type, when it has it. The cast is sound:
     * {@link #check} refused the registration when the capability's declared parent type does not accept that
     * type, and where a class leaves it open (a type variable, a lambda) its bound is {@code HasMetadata}.
     */
    @SuppressWarnings("unchecked")
    static <C> Optional<C> of(Object controller, Class<?> capability) {
        return capability.isInstance(controller) ? Optional.of((C) controller) : Optional.empty();
    }

    /** The class of the first type argument {@code implementation} gives {@code capability}, or null when not a class. */
    static Class<?> parentTypeOf(Class<?> implementation, Class<?> capability) {
        for (Class<?> current = implementation; current != null; current = current.getSuperclass()) {
            for (Type implemented : current.getGenericInterfaces()) {
                Class<?> found = argument(implemented, capability);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    private static Class<?> argument(Type implemented, Class<?> capability) {
        if (implemented instanceof ParameterizedType parameterized && parameterized.getRawType() == capability) {
            Type argument = parameterized.getActualTypeArguments()[0];
            if (argument instanceof Class<?> type) {
                return type;
            }
            return argument instanceof ParameterizedType generic && generic.getRawType() instanceof Class<?> raw ? raw : null;
        }
        Class<?> raw = implemented instanceof ParameterizedType parameterized ? (Class<?>) parameterized.getRawType()
                : implemented instanceof Class<?> type ? type : null;
        if (raw == null || raw == capability) {
            return null;
        }
        for (Type inherited : raw.getGenericInterfaces()) {
            Class<?> found = argument(inherited, capability);
            if (found != null) {
                return found;
            }
        }
        return null;
    }
}
