/**
 * Metacontroller's {@code bluegreen} example: a BlueGreenDeployment keeps two ReplicaSets, blue and
 * green, and a Service that points at the active one; a new pod template is rolled out on the
 * inactive one and the Service switched once all its replicas are available.
 */
package dev.metahook.examples.bluegreen;
