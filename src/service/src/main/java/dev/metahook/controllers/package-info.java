/**
 * The reference controllers metahook serves out of the box, written only against
 * {@link dev.metahook.api}: what a user copies to write their own.
 */
package dev.metahook.controllers;
