package dev.mockapns;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What firebase-admin-java does on the wire, with the JDK alone: google-auth-library-java's service-account grant
 * (an RS256 JWT signed with the file's key, posted form-encoded to its {@code token_uri}), then FCM HTTP v1's
 * {@code messages:send} with the bearer token it bought and the SDK's headers. Shared by FcmTest and FcmChildSender.
 */
public final class GoogleGrant {
    /** The scopes firebase-admin-java's FirebaseOptions asks for; the messaging API accepts cloud-platform. */
    public static final List<String> FIREBASE_ADMIN_SCOPES = List.of(
            "https://www.googleapis.com/auth/firebase.database",
            "https://www.googleapis.com/auth/userinfo.email",
            "https://www.googleapis.com/auth/identitytoolkit",
            "https://www.googleapis.com/auth/devstorage.full_control",
            "https://www.googleapis.com/auth/cloud-platform",
            "https://www.googleapis.com/auth/datastore");
    /** The audience of the grant: Google's token endpoint, whatever the file's token_uri says. */
    public static final String AUDIENCE = "https://oauth2.googleapis.com/token";
    public static final String JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

    private GoogleGrant() {}

    /** A service-account key file, parsed. */
    public static Map<String, Object> serviceAccount(Path file) throws IOException {
        return Json.parseObject(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    }

    /** The file's {@code private_key}: a PEM "PRIVATE KEY" (PKCS#8) RSA key, as Google's console writes it. */
    public static PrivateKey privateKey(Map<String, Object> account) throws GeneralSecurityException {
        String pem = (String) account.get("private_key");
        String begin = "-----BEGIN PRIVATE KEY-----";
        String end = "-----END PRIVATE KEY-----";
        int from = pem.indexOf(begin);
        int to = pem.indexOf(end);
        if (from < 0 || to < from) throw new IllegalArgumentException("private_key is not a PKCS#8 PEM key");
        byte[] der = Base64.getMimeDecoder().decode(pem.substring(from + begin.length(), to).trim());
        return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
    }

    /** The JWT the grant carries: {@code kid} the file's key id, {@code iss} its client_email, an hour long. */
    public static String assertion(Map<String, Object> account, PrivateKey key, List<String> scopes, long now)
            throws GeneralSecurityException {
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("alg", "RS256");
        header.put("typ", "JWT");
        header.put("kid", account.get("private_key_id"));
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("iss", account.get("client_email"));
        claims.put("aud", AUDIENCE);
        claims.put("iat", now);
        claims.put("exp", now + 3600);
        claims.put("scope", String.join(" ", scopes));
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        String signingInput = base64.encodeToString(Json.write(header).getBytes(StandardCharsets.UTF_8)) + "."
                + base64.encodeToString(Json.write(claims).getBytes(StandardCharsets.UTF_8));
        Signature signer = Signature.getInstance("SHA256withRSA");
        signer.initSign(key);
        signer.update(signingInput.getBytes(StandardCharsets.US_ASCII));
        return signingInput + "." + base64.encodeToString(signer.sign());
    }

    /** POSTs the grant to {@code tokenUrl}: {@code grant_type=…jwt-bearer&assertion=JWT}, form-encoded. */
    public static HttpResponse<String> grant(HttpClient client, String tokenUrl, String assertion)
            throws IOException, InterruptedException {
        String form = "grant_type=" + URLEncoder.encode(JWT_BEARER, StandardCharsets.UTF_8) + "&assertion="
                + URLEncoder.encode(assertion, StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create(tokenUrl)).timeout(Duration.ofSeconds(20))
                .header("content-type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** The {@code access_token} of a 200 grant; an IllegalStateException quoting the answer otherwise. */
    public static String accessToken(HttpResponse<String> grant) {
        Object token = grant.statusCode() == 200 ? ((Map<?, ?>) Json.parse(grant.body())).get("access_token") : null;
        if (!(token instanceof String)) {
            throw new IllegalStateException("the grant answered " + grant.statusCode() + ": " + grant.body());
        }
        return (String) token;
    }

    /**
     * POSTs {@code {"message": message}} to {@code sendUrl} ({@code …/v1/projects/P/messages:send}) as
     * firebase-admin-java's FirebaseMessagingClientImpl does: its two headers, JSON in UTF-8, the bearer token
     * ({@code bearer} null: none).
     */
    public static HttpResponse<String> send(HttpClient client, String sendUrl, String bearer, Map<String, Object> message)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(sendUrl)).timeout(Duration.ofSeconds(20))
                .header("content-type", "application/json; charset=UTF-8")
                .header("x-goog-api-format-version", "2")
                .header("x-firebase-client", "fire-admin-java/9.4.3")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(Map.of("message", message)),
                        StandardCharsets.UTF_8));
        if (bearer != null) request.header("authorization", "Bearer " + bearer);
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A message with a notification (and a data entry) to one registration token, as Message.builder() makes it. */
    public static Map<String, Object> notificationTo(String token, String title, String body) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("token", token);
        message.put("notification", Map.of("title", title, "body", body));
        message.put("data", Map.of("orderId", "42"));
        return message;
    }
}
