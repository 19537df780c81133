/**
 * Metacontroller's contract as rules over a hook's answer, written once: the server refuses an answer
 * that breaks one ({@code engine}), {@code check} reports it ({@code sim}), both naming the same rule.
 * Above {@code wire} (the JSON), below {@code engine} and {@code sim}.
 */
package dev.metahook.contract;
