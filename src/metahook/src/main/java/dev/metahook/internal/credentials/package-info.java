/**
 * Credential files and certificates, and what is wrong with them in words a user acts on: a file that is not
 * found, not readable or empty, a certificate expired or not yet valid (the first of a chain, or a CA of it that a
 * client verifying the chain as Go does needs), a key that is not the certificate's, a peer's certificate issued
 * for another name or signed by a CA not trusted. The service (its token, TLS and CA files) and
 * {@code check}/{@code render} (their {@code --token-file}, {@code --cacert}, {@code --cert}, {@code --key}, and
 * the hook's certificate in a handshake) say it the same way, from here. The JDK alone.
 */
package dev.metahook.internal.credentials;
