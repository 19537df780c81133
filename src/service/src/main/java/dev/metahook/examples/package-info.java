/**
 * Metacontroller's official examples, ported onto {@link dev.metahook.api}: {@code bluegreen},
 * {@code catset}, {@code configmappropagation} and {@code serviceperpod}. Like the reference
 * controllers they see only the API and the fabric8 model; the service serves them when
 * {@code METAHOOK_EXAMPLES=true}, under the names {@link dev.metahook.examples.Examples} gives them.
 */
package dev.metahook.examples;
