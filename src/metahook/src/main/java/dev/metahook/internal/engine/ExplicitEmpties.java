package dev.metahook.internal.engine;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.BeanSerializerModifier;
import com.fasterxml.jackson.databind.ser.ContextualSerializer;
import com.fasterxml.jackson.databind.ser.ResolvableSerializer;
import com.fasterxml.jackson.databind.type.CollectionType;
import com.fasterxml.jackson.databind.type.MapType;
import dev.metahook.api.Explicit;
import dev.metahook.internal.wire.Json;
import java.io.IOException;

/**
 * The mapper the engine writes answers with: the shared one, except that an {@link Explicit} empty
 * list or map counts as not empty, so a field fabric8 declares {@code @JsonInclude(NON_EMPTY)} is
 * written as {@code []} or {@code {}} when the controller set it so. Every other empty is left out as
 * fabric8 leaves it: its constructors and builders start each list and map empty, so an ordinary
 * empty one cannot be told from one never set.
 */
final class ExplicitEmpties {
    private static final ObjectMapper MAPPER = Json.mapper().copy().registerModule(new SimpleModule("explicit-empties")
            .setSerializerModifier(new Modifier()));

    private ExplicitEmpties() {
    }

    static ObjectMapper mapper() {
        return MAPPER;
    }

    private static final class Modifier extends BeanSerializerModifier {
        @Override
        public JsonSerializer<?> modifyCollectionSerializer(SerializationConfig config, CollectionType type, BeanDescription bean,
                                                            JsonSerializer<?> serializer) {
            return new Kept(serializer);
        }

        @Override
        public JsonSerializer<?> modifyMapSerializer(SerializationConfig config, MapType type, BeanDescription bean,
                                                     JsonSerializer<?> serializer) {
            return new Kept(serializer);
        }
    }

    /** A collection or map serializer for which an explicit empty is not empty. */
    private static final class Kept extends JsonSerializer<Object> implements ContextualSerializer, ResolvableSerializer {
        private final JsonSerializer<Object> delegate;

        @SuppressWarnings("unchecked")
        Kept(JsonSerializer<?> delegate) {
            this.delegate = (JsonSerializer<Object>) delegate;
        }

        @Override
        public boolean isEmpty(SerializerProvider provider, Object value) {
            return !Explicit.isExplicitEmpty(value) && delegate.isEmpty(provider, value);
        }

        @Override
        public void serialize(Object value, JsonGenerator generator, SerializerProvider provider) throws IOException {
            delegate.serialize(value, generator, provider);
        }

        @Override
        public void serializeWithType(Object value, JsonGenerator generator, SerializerProvider provider, TypeSerializer types)
                throws IOException {
            delegate.serializeWithType(value, generator, provider, types);
        }

        @Override
        public JsonSerializer<?> createContextual(SerializerProvider provider, BeanProperty property) throws JsonMappingException {
            if (delegate instanceof ContextualSerializer contextual) {
                JsonSerializer<?> specific = contextual.createContextual(provider, property);
                return specific == delegate ? this : new Kept(specific);
            }
            return this;
        }

        @Override
        public void resolve(SerializerProvider provider) throws JsonMappingException {
            if (delegate instanceof ResolvableSerializer resolvable) {
                resolvable.resolve(provider);
            }
        }

        @Override
        public Class<Object> handledType() {
            return delegate.handledType();
        }

        @Override
        public boolean usesObjectId() {
            return delegate.usesObjectId();
        }
    }
}
