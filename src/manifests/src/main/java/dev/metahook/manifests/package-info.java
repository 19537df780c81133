/**
 * The manifests that run a set of controllers on a cluster, generated from their registration: the
 * CompositeController or DecoratorController of each, the CustomResourceDefinition of each custom
 * parent type (fabric8's crd-generator over the annotated class), the hook service's Deployment,
 * Service, NetworkPolicy, PodDisruptionBudget and autoscaler, as one kustomize directory.
 * {@link dev.metahook.manifests.Manifests} is the entry point.
 */
package dev.metahook.manifests;
