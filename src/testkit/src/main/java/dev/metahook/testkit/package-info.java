/**
 * Tests for controllers written on {@link dev.metahook.api}, without a cluster and without a test
 * framework of its own: {@link dev.metahook.testkit.HookTester} builds requests as Metacontroller
 * sends them from typed objects or YAML, calls a controller through the real engine (guards,
 * canonical encoding, error taxonomy), reads the answer typed, and runs the simulator's lifecycle
 * (the breaches {@code check} reports) on it. Use it from any test framework: failures are values
 * (status codes, problems, breaches), never assertions.
 */
package dev.metahook.testkit;
