package dev.mockapns;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * APNs provider tokens: ES256 JWTs {@code {"alg":"ES256","kid":KEY_ID}.{"iss":TEAM_ID,"iat":SECONDS}} signed with a
 * .p8 key through the JDK ({@code SHA256withECDSA}), the signature turned from the JDK's DER into the raw
 * {@code r||s} (64 bytes) that JWS requires. One token is handed out for {@link #REUSE} (APNs refuses a sender that
 * signs new ones more often than every 20 minutes, and tokens older than an hour).
 */
public final class ProviderToken {
    /** How long {@link #get()} hands out the same token. */
    public static final Duration REUSE = Duration.ofMinutes(20);

    private final String teamId;
    private final String keyId;
    private final PrivateKey key;
    private final Clock clock;
    private String token;
    private Instant minted;

    ProviderToken(String teamId, String keyId, PrivateKey key, Clock clock) {
        this.teamId = teamId;
        this.keyId = keyId;
        this.key = key;
        this.clock = clock;
    }

    /** The current token: minted on first use and again once it is {@link #REUSE} old. */
    public synchronized String get() {
        Instant now = clock.instant();
        if (token == null || !now.isBefore(minted.plus(REUSE))) {
            token = sign(teamId, keyId, key, now.getEpochSecond());
            minted = now;
        }
        return token;
    }

    /** A new token issued at {@code issuedAt} (seconds since 1970), signed with {@code key}. */
    public static String sign(String teamId, String keyId, PrivateKey key, long issuedAt) {
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("alg", "ES256");
        header.put("kid", keyId);
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("iss", teamId);
        claims.put("iat", issuedAt);
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        String signingInput = base64.encodeToString(Json.write(header).getBytes(StandardCharsets.UTF_8)) + "."
                + base64.encodeToString(Json.write(claims).getBytes(StandardCharsets.UTF_8));
        try {
            Signature signer = Signature.getInstance("SHA256withECDSA");
            signer.initSign(key);
            signer.update(signingInput.getBytes(StandardCharsets.US_ASCII));
            return signingInput + "." + base64.encodeToString(derToRaw(signer.sign(), 32));
        } catch (GeneralSecurityException e) {
            throw new MockAPNsException("Cannot sign a provider token with key " + keyId + ": " + e.getMessage()
                    + ". The key must be an EC P-256 key (an APNs .p8 file).", e);
        }
    }

    /** Reads an Apple .p8 file: a PEM "PRIVATE KEY" block holding a PKCS#8 EC P-256 key. */
    public static PrivateKey readP8(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new MockAPNsException("Cannot read the signing key " + file + ": " + e + ".", e);
        }
        String begin = "-----BEGIN PRIVATE KEY-----";
        String end = "-----END PRIVATE KEY-----";
        int from = text.indexOf(begin);
        int to = text.indexOf(end);
        if (from < 0 || to < from) {
            throw new MockAPNsException(file + " is not a .p8 key: it has no " + begin + " ... " + end + " block.");
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(text.substring(from + begin.length(), to).trim());
        } catch (IllegalArgumentException e) {
            throw new MockAPNsException(file + " is not a .p8 key: its PEM block is not base64 (" + e.getMessage() + ").");
        }
        try {
            PrivateKey key = KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(der));
            int bits = ((ECPrivateKey) key).getParams().getOrder().bitLength();
            if (bits != 256) {
                throw new MockAPNsException(file + " holds a " + bits + "-bit EC key; ES256 needs a P-256 key.");
            }
            return key;
        } catch (GeneralSecurityException | ClassCastException e) {
            throw new MockAPNsException(file + " is not a PKCS#8 EC private key (" + e.getMessage() + ").", e);
        }
    }

    /**
     * The raw {@code r||s} form of a DER ECDSA signature ({@code SEQUENCE { INTEGER r, INTEGER s }}), each integer
     * left-padded with zeros to {@code size} bytes (32 for P-256).
     */
    static byte[] derToRaw(byte[] der, int size) {
        int[] at = {0};
        expect(der, at, 0x30, "a DER SEQUENCE");
        int length = length(der, at);
        if (at[0] + length != der.length) {
            throw new IllegalArgumentException("DER signature: the SEQUENCE is " + length + " bytes but "
                    + (der.length - at[0]) + " follow its header");
        }
        byte[] raw = new byte[2 * size];
        for (int part = 0; part < 2; part++) {
            expect(der, at, 0x02, "a DER INTEGER");
            int n = length(der, at);
            if (n == 0 || at[0] + n > der.length) throw new IllegalArgumentException("DER signature: bad INTEGER length");
            int start = at[0];
            int end = start + n;
            while (start < end - 1 && der[start] == 0) start++; // the sign byte (and any other leading zero)
            if (end - start > size) {
                throw new IllegalArgumentException("DER signature: an integer of " + (end - start)
                        + " bytes does not fit " + size);
            }
            System.arraycopy(der, start, raw, part * size + size - (end - start), end - start);
            at[0] = end;
        }
        if (at[0] != der.length) throw new IllegalArgumentException("DER signature: bytes after the two integers");
        return raw;
    }

    /** The DER form of a raw {@code r||s} signature: what {@code Signature.verify} takes (used by the tests). */
    static byte[] rawToDer(byte[] raw) {
        int size = raw.length / 2;
        List<byte[]> parts = List.of(derInteger(raw, 0, size), derInteger(raw, size, size));
        int body = parts.get(0).length + parts.get(1).length;
        byte[] der = new byte[(body < 128 ? 2 : 3) + body];
        int at = 0;
        der[at++] = 0x30;
        if (body >= 128) der[at++] = (byte) 0x81;
        der[at++] = (byte) body;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, der, at, part.length);
            at += part.length;
        }
        return der;
    }

    private static byte[] derInteger(byte[] raw, int offset, int size) {
        int start = offset;
        while (start < offset + size - 1 && raw[start] == 0) start++;
        int n = offset + size - start;
        boolean sign = (raw[start] & 0x80) != 0;
        byte[] out = new byte[2 + n + (sign ? 1 : 0)];
        out[0] = 0x02;
        out[1] = (byte) (n + (sign ? 1 : 0));
        System.arraycopy(raw, start, out, 2 + (sign ? 1 : 0), n);
        return out;
    }

    private static void expect(byte[] der, int[] at, int tag, String what) {
        if (at[0] >= der.length || (der[at[0]] & 0xff) != tag) {
            throw new IllegalArgumentException("DER signature: expected " + what + " at byte " + at[0]);
        }
        at[0]++;
    }

    private static int length(byte[] der, int[] at) {
        if (at[0] >= der.length) throw new IllegalArgumentException("DER signature: truncated");
        int first = der[at[0]++] & 0xff;
        if (first < 0x80) return first;
        if (first == 0x81 && at[0] < der.length) return der[at[0]++] & 0xff;
        throw new IllegalArgumentException("DER signature: unsupported length form 0x" + Integer.toHexString(first));
    }
}
