/**
 * Database: a single-instance PostgreSQL (credentials Secret, two Services, a StatefulSet) with a
 * phase state machine and a finalize hook that drains, takes a final backup, then lets go.
 */
package dev.metahook.controllers.database;
