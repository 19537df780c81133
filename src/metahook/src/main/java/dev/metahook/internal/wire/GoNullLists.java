package dev.metahook.internal.wire;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBuilder;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.SettableBeanProperty;
import com.fasterxml.jackson.databind.deser.NullValueProvider;
import com.fasterxml.jackson.databind.util.AccessPattern;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * An explicit {@code null} list in a Kubernetes object (the API server writes one for a Go slice
 * without {@code omitempty}, such as an aggregated ClusterRole's {@code rules}) reads as the empty
 * list Go means, in fabric8's model classes only: there an absent list is empty already, so null and
 * absent agree. A controller's own records keep {@code null} for a null or absent list, so their
 * authors can still tell "not given" from "given empty".
 */
final class GoNullLists extends BeanDeserializerModifier {
    private static final NullValueProvider EMPTY = new NullValueProvider() {
        @Override
        public Object getNullValue(DeserializationContext context) {
            return new ArrayList<>();
        }

        @Override
        public AccessPattern getNullAccessPattern() {
            return AccessPattern.DYNAMIC;
        }
    };

    @Override
    public BeanDeserializerBuilder updateBuilder(DeserializationConfig config, BeanDescription bean, BeanDeserializerBuilder builder) {
        if (!bean.getBeanClass().getName().startsWith("io.fabric8.kubernetes.api.model.")) {
            return builder;
        }
        List<SettableBeanProperty> lists = new ArrayList<>();
        for (Iterator<SettableBeanProperty> it = builder.getProperties(); it.hasNext(); ) {
            SettableBeanProperty property = it.next();
            if (List.class.isAssignableFrom(property.getType().getRawClass())) {
                lists.add(property);
            }
        }
        lists.forEach(property -> builder.addOrReplaceProperty(property.withNullProvider(EMPTY), true));
        return builder;
    }
}
