/**
 * Metacontroller's {@code service-per-pod} example: two DecoratorControllers. One gives every pod of
 * an annotated StatefulSet a Service of its own, and takes them away again when the StatefulSet goes
 * or opts out; the other labels annotated pods with their own name, for StatefulSets that do not.
 */
package dev.metahook.examples.serviceperpod;
