package dev.metahook.api;

import com.fasterxml.jackson.annotation.JsonFormat;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.time.OffsetDateTime;

/**
 * The CRD schema of one {@code metav1.Condition}, for a status that holds fabric8's {@code Condition}s
 * (which carry no validation): annotate the field with
 * {@code @SchemaFrom(type = ConditionSchema[].class)} and the generated CRD asks what the API server
 * asks of a condition: every field but {@code observedGeneration} required, the status one of
 * {@code True}, {@code False}, {@code Unknown}, a message of at most 32768 characters.
 */
public record ConditionSchema(@Required String type, @Required ConditionStatus status, @Required String reason,
                              @Required @Size(max = 32768) String message, @Required OffsetDateTime lastTransitionTime,
                              Long observedGeneration) {
}
