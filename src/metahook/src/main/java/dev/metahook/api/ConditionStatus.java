package dev.metahook.api;

import com.fasterxml.jackson.annotation.JsonValue;

/** The status of a {@code metav1.Condition}: {@code True}, {@code False} or {@code Unknown}. */
public enum ConditionStatus {
    TRUE("True"), FALSE("False"), UNKNOWN("Unknown");

    private final String text;

    ConditionStatus(String text) {
        this.text = text;
    }

    public static ConditionStatus of(boolean status) {
        return status ? TRUE : FALSE;
    }

    /** As Kubernetes writes it (and JSON, and a CRD's enum). */
    @JsonValue
    public String text() {
        return text;
    }
}
