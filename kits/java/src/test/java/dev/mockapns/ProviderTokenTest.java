package dev.mockapns;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProviderTokenTest {
    private static final Base64.Decoder BASE64URL = Base64.getUrlDecoder();

    @Test
    void aTokenIsAnEs256JwtThatVerifiesWithTheKeysPublicHalf() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        for (int i = 0; i < 50; i++) { // r and s sometimes have a sign byte or a leading zero: every shape is met
            KeyPair pair = generator.generateKeyPair();
            String token = ProviderToken.sign("TEAM000001", "KEY0000001", pair.getPrivate(), 1_700_000_000L + i);
            String[] parts = token.split("\\.");
            assertEquals(3, parts.length, token);
            assertEquals(Map.of("alg", "ES256", "kid", "KEY0000001"), Json.parse(BASE64URL.decode(parts[0])));
            assertEquals(Map.of("iss", "TEAM000001", "iat", 1_700_000_000L + i), Json.parse(BASE64URL.decode(parts[1])));
            assertTrue(!token.contains("=") && !token.contains("+") && !token.contains("/"), "base64url, no padding");
            byte[] raw = BASE64URL.decode(parts[2]);
            assertEquals(64, raw.length, "JWS ES256 signatures are r||s, 32 bytes each");
            Signature verifier = Signature.getInstance("SHA256withECDSA");
            verifier.initVerify(pair.getPublic());
            verifier.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
            assertTrue(verifier.verify(ProviderToken.rawToDer(raw)), token);
        }
    }

    @Test
    void derToRawPadsShortIntegersAndDropsSignBytes() {
        byte[] r = new byte[32];
        byte[] s = new byte[32];
        r[31] = 5;                 // r = 5: one byte in DER
        s[0] = (byte) 0x80;        // s has its top bit set: DER adds a 0x00 sign byte
        s[31] = 1;
        byte[] raw = new byte[64];
        System.arraycopy(r, 0, raw, 0, 32);
        System.arraycopy(s, 0, raw, 32, 32);
        byte[] der = ProviderToken.rawToDer(raw);
        assertEquals(2 + 3 + 35, der.length);
        assertEquals(0x30, der[0]);
        assertArrayEquals(raw, ProviderToken.derToRaw(der, 32));
    }

    @Test
    void derToRawRefusesWhatIsNotAnEcdsaSignature() {
        assertEquals("DER signature: expected a DER SEQUENCE at byte 0",
                assertThrows(IllegalArgumentException.class, () -> ProviderToken.derToRaw(new byte[] {0x31, 0}, 32))
                        .getMessage());
        byte[] tooLong = new byte[2 + 2 + 33 + 3];
        tooLong[0] = 0x30;
        tooLong[1] = (byte) (tooLong.length - 2);
        tooLong[2] = 0x02;
        tooLong[3] = 33;
        tooLong[4] = 0x7f; // 33 significant bytes: more than P-256 can make
        tooLong[37] = 0x02;
        tooLong[38] = 1;
        assertEquals("DER signature: an integer of 33 bytes does not fit 32",
                assertThrows(IllegalArgumentException.class, () -> ProviderToken.derToRaw(tooLong, 32)).getMessage());
        assertEquals("DER signature: the SEQUENCE is 10 bytes but 2 follow its header",
                assertThrows(IllegalArgumentException.class,
                        () -> ProviderToken.derToRaw(new byte[] {0x30, 10, 0x02, 0}, 32)).getMessage());
    }

    @Test
    void theSameTokenIsHandedOutFor20Minutes() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        MutableClock clock = new MutableClock(Instant.parse("2025-01-01T00:00:00Z"));
        ProviderToken tokens = new ProviderToken("TEAM000001", "KEY0000001", generator.generateKeyPair().getPrivate(),
                clock);
        String first = tokens.get();
        clock.now = clock.now.plus(Duration.ofMinutes(20)).minusMillis(1);
        assertEquals(first, tokens.get(), "reused just short of 20 minutes");
        clock.now = clock.now.plusMillis(1);
        String second = tokens.get();
        assertNotEquals(first, second, "a new one at 20 minutes");
        Map<?, ?> claims = (Map<?, ?>) Json.parse(BASE64URL.decode(second.split("\\.")[1]));
        assertEquals(Instant.parse("2025-01-01T00:20:00Z").getEpochSecond(), claims.get("iat"));
    }

    @Test
    void readsTheRepositorysTestKeyAndExplainsBadFiles(@TempDir Path dir) throws Exception {
        Path p8 = TestSupport.repositoryCerts().resolve("AuthKey_TESTKEY001.p8");
        assertTrue(Files.isRegularFile(p8), "the repository's test key is at " + p8);
        assertEquals("EC", ProviderToken.readP8(p8).getAlgorithm());

        Path missing = dir.resolve("missing.p8");
        assertTrue(assertThrows(MockAPNsException.class, () -> ProviderToken.readP8(missing)).getMessage()
                .startsWith("Cannot read the signing key " + missing));
        Path notPem = Files.writeString(dir.resolve("not.p8"), "hello");
        assertEquals(notPem + " is not a .p8 key: it has no -----BEGIN PRIVATE KEY----- ... -----END PRIVATE KEY----- block.",
                assertThrows(MockAPNsException.class, () -> ProviderToken.readP8(notPem)).getMessage());
        Path notKey = Files.writeString(dir.resolve("garbage.p8"),
                "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
        assertTrue(assertThrows(MockAPNsException.class, () -> ProviderToken.readP8(notKey)).getMessage()
                .startsWith(notKey + " is not a PKCS#8 EC private key"));
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(1024);
        Path rsaKey = Files.writeString(dir.resolve("rsa.p8"), "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(rsa.generateKeyPair().getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        assertTrue(assertThrows(MockAPNsException.class, () -> ProviderToken.readP8(rsaKey)).getMessage()
                .startsWith(rsaKey + " is not a PKCS#8 EC private key"));
        KeyPairGenerator p384 = KeyPairGenerator.getInstance("EC");
        p384.initialize(new ECGenParameterSpec("secp384r1"));
        Path bigKey = Files.writeString(dir.resolve("p384.p8"), "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(p384.generateKeyPair().getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        assertEquals(bigKey + " holds a 384-bit EC key; ES256 needs a P-256 key.",
                assertThrows(MockAPNsException.class, () -> ProviderToken.readP8(bigKey)).getMessage());
    }

    /** A clock a test moves by hand. */
    static final class MutableClock extends Clock {
        Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
