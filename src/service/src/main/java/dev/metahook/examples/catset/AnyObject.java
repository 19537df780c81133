package dev.metahook.examples.catset;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;

/** The CRD's schema for an object the API server checks as its own type: any fields, kept as given. */
@PreserveUnknownFields
final class AnyObject {
    private AnyObject() {
    }

    @JsonAnySetter
    void set(String field, Object value) {
    }
}
