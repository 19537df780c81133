package dev.metahook.internal.server;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * PEM certificates and private keys, read with the JDK alone: the files of a {@code kubernetes.io/tls}
 * Secret as cert-manager and openssl write them. Certificates are every {@code CERTIFICATE} block of a
 * file, in order (a chain, or a CA bundle). A key is one unencrypted block of PKCS#8
 * ({@code PRIVATE KEY}: RSA, RSASSA-PSS, EC, Ed25519, Ed448), PKCS#1 ({@code RSA PRIVATE KEY}) or SEC1
 * ({@code EC PRIVATE KEY} on a named curve, possibly after an {@code EC PARAMETERS} block); PKCS#1 and
 * SEC1 are wrapped into the PKCS#8 structure the JDK's {@link KeyFactory} reads. Text around the blocks
 * (openssl's "Bag Attributes", a bundle's comments) is ignored. Every error names the file.
 */
public final class PemFiles {
    private static final String RSA = "1.2.840.113549.1.1.1";
    private static final String EC = "1.2.840.10045.2.1";
    private static final byte[] RSA_ALGORITHM = {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};
    private static final byte[] EC_OID = {0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01};
    private static final int SEQUENCE = 0x30;
    private static final int INTEGER = 0x02;
    private static final int OCTET_STRING = 0x04;
    private static final int OID = 0x06;
    private static final int PARAMETERS = 0xa0;

    private PemFiles() {
    }

    /** One {@code -----BEGIN label-----} block: its headers (RFC 1421's, such as {@code Proc-Type}) and its decoded content. */
    record Block(String label, int line, List<String> headers, byte[] der) {
    }

    /** The certificates of a PEM file (a chain or a CA bundle): at least one; every error names the file. */
    public static List<X509Certificate> certificates(Path file) throws IOException, GeneralSecurityException {
        return certificates(file, Files.readAllBytes(file));
    }

    /** The certificates of {@code content}, read from {@code file}: at least one. */
    public static List<X509Certificate> certificates(Path file, byte[] content) throws GeneralSecurityException {
        List<Block> blocks = blocks(file, content);
        CertificateFactory factory = CertificateFactory.getInstance("X.509");
        List<X509Certificate> certificates = new ArrayList<>();
        for (Block block : blocks) {
            if (block.label().equals("CERTIFICATE")) {
                try {
                    certificates.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(block.der())));
                } catch (CertificateException e) {
                    throw new CertificateException(file + ": the CERTIFICATE at line " + block.line() + " is not an X.509 certificate ("
                            + e.getMessage() + ")", e);
                }
            }
        }
        if (certificates.isEmpty()) {
            throw new CertificateException(file + " holds no certificate: a PEM -----BEGIN CERTIFICATE----- block was expected" + found(blocks));
        }
        return certificates;
    }

    /** The one unencrypted private key of a PEM file; every error names the file. */
    public static PrivateKey privateKey(Path file) throws IOException, GeneralSecurityException {
        return privateKey(file, Files.readAllBytes(file));
    }

    /** The one private key of {@code content}, read from {@code file}. */
    public static PrivateKey privateKey(Path file, byte[] content) throws GeneralSecurityException {
        List<Block> blocks = blocks(file, content);
        List<Block> keys = blocks.stream().filter(b -> b.label().endsWith("PRIVATE KEY")).toList();
        if (keys.isEmpty()) {
            throw new GeneralSecurityException(file + " holds no private key: a PEM -----BEGIN PRIVATE KEY----- (PKCS#8), "
                    + "-----BEGIN RSA PRIVATE KEY----- (PKCS#1) or -----BEGIN EC PRIVATE KEY----- (SEC1) block was expected" + found(blocks));
        }
        if (keys.size() > 1) {
            throw new GeneralSecurityException(file + " holds " + keys.size() + " private keys (lines "
                    + keys.stream().map(b -> String.valueOf(b.line())).toList() + "): one was expected");
        }
        Block key = keys.get(0);
        boolean encrypted = key.label().equals("ENCRYPTED PRIVATE KEY")
                || key.headers().stream().anyMatch(h -> h.replace(" ", "").equalsIgnoreCase("Proc-Type:4,ENCRYPTED"));
        if (encrypted) {
            throw new GeneralSecurityException(file + " holds an encrypted private key (" + key.label() + " at line " + key.line()
                    + "): the key must be unencrypted, as cert-manager writes it (openssl pkey -in KEY -out PLAIN decrypts one)");
        }
        String where = file + ": the " + key.label() + " at line " + key.line();
        try {
            return switch (key.label()) {
                case "PRIVATE KEY" -> pkcs8(where, key.der());
                case "RSA PRIVATE KEY" -> KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(
                        tlv(SEQUENCE, tlv(INTEGER, new byte[] {0}), RSA_ALGORITHM, tlv(OCTET_STRING, key.der()))));
                case "EC PRIVATE KEY" -> sec1(where, key.der(), blocks);
                default -> throw new GeneralSecurityException(where + " is not a key this service reads: "
                        + "PRIVATE KEY (PKCS#8), RSA PRIVATE KEY (PKCS#1) or EC PRIVATE KEY (SEC1) was expected");
            };
        } catch (Der.Malformed e) {
            throw new GeneralSecurityException(where + " is not a DER " + key.label() + " (" + e.getMessage() + ")", e);
        } catch (GeneralSecurityException e) {
            if (e.getMessage() != null && e.getMessage().startsWith(where)) {
                throw e;
            }
            throw new GeneralSecurityException(where + " cannot be read as a key (" + e + ")", e);
        }
    }

    /** A PKCS#8 PrivateKeyInfo: the algorithm from its identifier, the rest the JDK's. */
    private static PrivateKey pkcs8(String where, byte[] der) throws GeneralSecurityException, Der.Malformed {
        Der info = new Der(der).enter(SEQUENCE);
        info.expect(INTEGER);
        String oid = Der.oid(info.enter(SEQUENCE).expect(OID));
        String algorithm = switch (oid) {
            case RSA -> "RSA";
            case "1.2.840.113549.1.1.10" -> "RSASSA-PSS";
            case EC -> "EC";
            case "1.3.101.112" -> "Ed25519";
            case "1.3.101.113" -> "Ed448";
            default -> throw new GeneralSecurityException(where + " is a key of algorithm " + oid + ": RSA, RSASSA-PSS, EC, Ed25519 or Ed448 was expected");
        };
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
    }

    /**
     * A SEC1 ECPrivateKey ({@code SEQUENCE {version 1, privateKey OCTET STRING, [0] parameters, [1] publicKey}}),
     * the curve from its parameters or else from an {@code EC PARAMETERS} block of the file, wrapped into
     * a PrivateKeyInfo whose algorithm identifier names EC and that curve.
     */
    private static PrivateKey sec1(String where, byte[] der, List<Block> blocks) throws GeneralSecurityException, Der.Malformed {
        Der key = new Der(der).enter(SEQUENCE);
        key.expect(INTEGER);
        key.expect(OCTET_STRING);
        byte[] curve = null;
        if (key.next() == PARAMETERS) {
            curve = key.enter(PARAMETERS).element();
        } else {
            for (Block block : blocks) {
                if (block.label().equals("EC PARAMETERS")) {
                    curve = new Der(block.der()).element();
                }
            }
        }
        if (curve == null) {
            throw new GeneralSecurityException(where + " names no curve (no parameters, and no EC PARAMETERS block)");
        }
        if ((curve[0] & 0xff) != OID) {
            throw new GeneralSecurityException(where + " gives its curve as explicit parameters: a named curve (P-256, P-384, P-521) "
                    + "was expected (openssl ec -param_enc named_curve writes one)");
        }
        return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(
                tlv(SEQUENCE, tlv(INTEGER, new byte[] {0}), tlv(SEQUENCE, EC_OID, curve), tlv(OCTET_STRING, der))));
    }

    /** The PEM blocks of {@code content}, each decoded; text outside them is skipped. */
    static List<Block> blocks(Path file, byte[] content) throws GeneralSecurityException {
        String[] lines = new String(content, StandardCharsets.ISO_8859_1).split("\r?\n|\r", -1);
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (!line.startsWith("-----BEGIN ")) {
                continue;
            }
            int start = i + 1;
            if (!line.endsWith("-----") || line.length() < "-----BEGIN -----".length()) {
                throw new GeneralSecurityException(file + ": line " + start + " is not a PEM BEGIN line");
            }
            String label = line.substring("-----BEGIN ".length(), line.length() - "-----".length());
            String end = "-----END " + label + "-----";
            List<String> headers = new ArrayList<>();
            StringBuilder base64 = new StringBuilder();
            boolean inHeaders = true;
            for (i++; i < lines.length && !lines[i].strip().equals(end); i++) {
                String text = lines[i].strip();
                if (text.startsWith("-----")) {
                    break;
                }
                if (inHeaders && text.contains(":")) {
                    headers.add(text);
                } else if (inHeaders && text.isEmpty() && !headers.isEmpty()) {
                    inHeaders = false;
                } else {
                    inHeaders = false;
                    base64.append(text);
                }
            }
            if (i == lines.length || !lines[i].strip().equals(end)) {
                throw new GeneralSecurityException(file + ": the " + label + " at line " + start + " has no " + end + " line (a file cut short?)");
            }
            byte[] der;
            try {
                der = Base64.getDecoder().decode(base64.toString().replaceAll("[ \t]", ""));
            } catch (IllegalArgumentException e) {
                throw new GeneralSecurityException(file + ": the " + label + " at line " + start + " is not base64 (" + e.getMessage() + ")", e);
            }
            if (der.length == 0) {
                throw new GeneralSecurityException(file + ": the " + label + " at line " + start + " is empty");
            }
            blocks.add(new Block(label, start, List.copyOf(headers), der));
        }
        return blocks;
    }

    private static String found(List<Block> blocks) {
        if (blocks.isEmpty()) {
            return ", and the file has no PEM block at all";
        }
        Set<String> labels = new LinkedHashSet<>();
        blocks.forEach(b -> labels.add(b.label()));
        return ", and the file has only " + String.join(", ", labels);
    }

    /** A DER element: its tag, its length and its content. */
    static byte[] tlv(int tag, byte[]... content) {
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        for (byte[] part : content) {
            joined.writeBytes(part);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int length = joined.size();
        if (length < 0x80) {
            out.write(length);
        } else {
            int bytes = length > 0xffffff ? 4 : length > 0xffff ? 3 : length > 0xff ? 2 : 1;
            out.write(0x80 | bytes);
            for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
                out.write(length >>> shift);
            }
        }
        out.writeBytes(joined.toByteArray());
        return out.toByteArray();
    }

    /** Reads the elements of one DER content, in order: as much of DER as these key structures need. */
    static final class Der {
        private final byte[] bytes;
        private int position;
        private final int end;

        /** A DER structure that is not what it should be. */
        static final class Malformed extends Exception {
            private static final long serialVersionUID = 1L;

            Malformed(String message) {
                super(message);
            }
        }

        Der(byte[] bytes) {
            this(bytes, 0, bytes.length);
        }

        private Der(byte[] bytes, int position, int end) {
            this.bytes = bytes;
            this.position = position;
            this.end = end;
        }

        /** The tag of the next element, or -1 at the end. */
        int next() {
            return position < end ? bytes[position] & 0xff : -1;
        }

        /** The next element, tag and length included, as it is encoded. */
        byte[] element() throws Malformed {
            int start = position;
            skip();
            return Arrays.copyOfRange(bytes, start, position);
        }

        /** The content of the next element, which must have {@code tag}. */
        byte[] expect(int tag) throws Malformed {
            int[] content = header(tag);
            return Arrays.copyOfRange(bytes, content[0], content[1]);
        }

        /** A reader of the content of the next element, which must have {@code tag}. */
        Der enter(int tag) throws Malformed {
            int[] content = header(tag);
            return new Der(bytes, content[0], content[1]);
        }

        private void skip() throws Malformed {
            header(next());
        }

        /** Reads the tag and length of the next element and moves past it; the start and end of its content. */
        private int[] header(int tag) throws Malformed {
            if (position >= end) {
                throw new Malformed("ends where an element of tag 0x" + Integer.toHexString(tag) + " was expected");
            }
            int found = bytes[position] & 0xff;
            if (found != tag) {
                throw new Malformed("tag 0x" + Integer.toHexString(found) + " where 0x" + Integer.toHexString(tag) + " was expected");
            }
            int at = position + 1;
            if (at >= end) {
                throw new Malformed("ends in a length");
            }
            int first = bytes[at++] & 0xff;
            long length = first;
            if (first >= 0x80) {
                int count = first & 0x7f;
                if (count == 0 || count > 4 || at + count > end) {
                    throw new Malformed("a length that is not DER");
                }
                length = 0;
                for (int i = 0; i < count; i++) {
                    length = length << 8 | bytes[at++] & 0xff;
                }
            }
            if (length > end - at) {
                throw new Malformed("an element longer than what holds it");
            }
            position = at + (int) length;
            return new int[] {at, position};
        }

        /** The dotted form of an OBJECT IDENTIFIER's content. */
        static String oid(byte[] content) throws Malformed {
            StringBuilder dotted = new StringBuilder();
            long arc = 0;
            boolean first = true;
            for (int i = 0; i < content.length; i++) {
                if (arc > Long.MAX_VALUE >>> 7) {
                    throw new Malformed("an object identifier arc too large");
                }
                arc = arc << 7 | content[i] & 0x7f;
                if ((content[i] & 0x80) != 0) {
                    if (i == content.length - 1) {
                        throw new Malformed("an object identifier cut short");
                    }
                    continue;
                }
                if (first) {
                    int top = arc < 40 ? 0 : arc < 80 ? 1 : 2;
                    dotted.append(top).append('.').append(arc - 40L * top);
                    first = false;
                } else {
                    dotted.append('.').append(arc);
                }
                arc = 0;
            }
            if (first) {
                throw new Malformed("an empty object identifier");
            }
            return dotted.toString();
        }
    }
}
