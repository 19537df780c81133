package dev.metahook.internal.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.contract.Breach;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The small conversions every hook's answer shares. */
final class Encoding {
    private Encoding() {
    }

    /**
     * A child, attachment or status as a tree, as the wire gets it: an {@link dev.metahook.api.Explicit}
     * empty is written, every other empty fabric8 leaves out stays out.
     */
    static JsonNode tree(Object value) {
        return value instanceof JsonNode node ? node : ExplicitEmpties.mapper().valueToTree(value);
    }

    /** A status value as an object tree; anything else is refused. */
    static ObjectNode status(Object status) {
        JsonNode tree = tree(status);
        if (tree instanceof ObjectNode object) {
            return object;
        }
        throw new GuardViolation(List.of(new Breach("malformed", "status is " + tree.getNodeType().toString().toLowerCase() + ", not an object")));
    }

    /** Seconds with millisecond precision; whole seconds come out as integers. */
    static BigDecimal seconds(Optional<Duration> delay) {
        return delay.map(d -> BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros()).orElse(null);
    }
}
