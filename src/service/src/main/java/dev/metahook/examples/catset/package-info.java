/**
 * Metacontroller's {@code catset} example: StatefulSet rebuilt as a CompositeController. Pods are
 * made one ordinal at a time, each after all lower ones are running and ready; every pod gets its
 * claims from the volume claim templates, which outlive a scale-down; deleting a CatSet scales it
 * down in order, highest ordinal first, before Metacontroller lets it go.
 */
package dev.metahook.examples.catset;
