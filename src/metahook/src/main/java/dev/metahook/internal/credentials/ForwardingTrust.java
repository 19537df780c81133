package dev.metahook.internal.credentials;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * A trust manager that hands every check to another, {@link #target()}: a subclass overrides the checks it words or
 * decides itself ({@link PeerTrust}), or changes the target (the server's client CA bundle, swapped when it is renewed).
 */
public abstract class ForwardingTrust extends X509ExtendedTrustManager {
    protected ForwardingTrust() {
    }

    /** The trust manager the checks go to, at the time of each check. */
    protected abstract X509ExtendedTrustManager target();

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        target().checkClientTrusted(chain, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        target().checkClientTrusted(chain, authType, socket);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        target().checkClientTrusted(chain, authType, engine);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        target().checkServerTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        target().checkServerTrusted(chain, authType, socket);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        target().checkServerTrusted(chain, authType, engine);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return target().getAcceptedIssuers();
    }
}
