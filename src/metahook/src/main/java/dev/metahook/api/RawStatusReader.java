package dev.metahook.api;

/**
 * A controller that reads the parent's stored status itself, from {@link Context#rawStatus()}, and so
 * copes with a status that does not fit its status type (an older shape, a field another tool
 * wrote). Without this capability such a parent is terminal, as an unreadable spec is: the answer
 * keeps every child, sets {@code Stalled} True with reason {@code InvalidStatus} and a message naming
 * the field by its JSON pointer, and the server logs it at WARN. With it, the controller is called as
 * usual, its parent's typed status is null, and the raw status tells it what was stored.
 */
public interface RawStatusReader {
}
