/**
 * Metacontroller's contract as rules over a hook's answer, written once: the server refuses an answer
 * that breaks one ({@code engine}), {@code check} reports it ({@code sim}), both naming the same rule.
 * Above {@code wire} (the JSON), below {@code engine} and {@code sim}.
 *
 * <p><b>Internal</b>: public only for the layers above; not for users to import, and free to change in
 * any release (docs/writing-controllers.md, "Use metahook as a library"; FenceTest).
 */
package dev.metahook.internal.contract;
