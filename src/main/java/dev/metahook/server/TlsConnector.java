package dev.metahook.server;

import java.security.GeneralSecurityException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedKeyManager;
import nl.altindag.ssl.pem.util.PemUtils;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * An HTTPS connector from PEM files, as Kubernetes TLS Secrets hold them: TLS 1.2 or newer, HTTP/1.1,
 * and, with a client CA bundle, a client certificate required from every caller.
 */
final class TlsConnector {
    private TlsConnector() {
    }

    static ServerConnector create(Server server, HttpConfiguration http, ServerConfig.Tls tls) {
        SslContextFactory.Server factory = new SslContextFactory.Server();
        factory.setSslContext(sslContext(tls));
        factory.setIncludeProtocols("TLSv1.3", "TLSv1.2");
        factory.setNeedClientAuth(tls.clientCaFile() != null);
        HttpConfiguration https = new HttpConfiguration(http);
        SecureRequestCustomizer secure = new SecureRequestCustomizer();
        secure.setSniHostCheck(false);
        https.addCustomizer(secure);
        return new ServerConnector(server, new SslConnectionFactory(factory, "http/1.1"), new HttpConnectionFactory(https));
    }

    private static SSLContext sslContext(ServerConfig.Tls tls) {
        try {
            X509ExtendedKeyManager keys = PemUtils.loadIdentityMaterial(tls.certFile(), tls.keyFile());
            TrustManager[] trust = tls.clientCaFile() == null ? null : new TrustManager[] {PemUtils.loadTrustMaterial(tls.clientCaFile())};
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(new X509ExtendedKeyManager[] {keys}, trust, null);
            return context;
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new IllegalArgumentException("TLS_CERT_FILE, TLS_KEY_FILE or TLS_CLIENT_CA_FILE cannot be used: " + e.getMessage(), e);
        }
    }
}
