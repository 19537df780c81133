package dev.metahook.api;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The settings of the CompositeController or DecoratorController a call is for, as Metacontroller sent them. */
public interface ControllerInfo {

    /** The controller object's {@code metadata.name}. */
    String name();

    /** {@code spec.resyncPeriodSeconds}, when set. */
    Optional<Duration> resyncPeriod();

    /** The declared children ({@code spec.childResources}) or a decorator's attachments ({@code spec.attachments}). */
    List<Resource> childResources();

    /** The wire version of a hook ({@code v1} unless the controller says {@code v2}). */
    String hookVersion(Hook hook);

    /** One declared resource: its apiVersion and plural resource name. */
    record Resource(String apiVersion, String resource) {
    }
}
