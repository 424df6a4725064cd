package dev.mockapns;

import java.net.InetAddress;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A Firebase sender in a JVM of its own, for FcmTest: it knows nothing of the mock. It reads the service-account file,
 * trades the grant at the file's {@code token_uri} and sends to {@code https://fcm.googleapis.com}, with the JDK's
 * HttpClient as built (the default SSLContext, the JVM's resolver). Only {@code -Djavax.net.ssl.trustStore} and
 * {@code -Djdk.net.hosts.file} lead it to the mock. Arguments: the service-account file, the registration token, and
 * Google's port when it is not 443 (a mock that cannot bind 443). Prints one JSON line of what it got.
 */
public final class FcmChildSender {
    private FcmChildSender() {}

    public static void main(String[] args) throws Exception {
        Map<String, Object> account = GoogleGrant.serviceAccount(Path.of(args[0]));
        String token = args[1];
        String port = args.length > 2 ? ":" + args[2] : "";
        String tokenUri = (String) account.get("token_uri");
        if (!port.isEmpty()) {
            tokenUri = tokenUri.replace("https://oauth2.googleapis.com/", "https://oauth2.googleapis.com" + port + "/");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("resolved", InetAddress.getByName("fcm.googleapis.com").getHostAddress());
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                .connectTimeout(Duration.ofSeconds(10)).build();
        try {
            PrivateKey key = GoogleGrant.privateKey(account);
            String assertion = GoogleGrant.assertion(account, key, GoogleGrant.FIREBASE_ADMIN_SCOPES,
                    System.currentTimeMillis() / 1000);
            HttpResponse<String> grant = GoogleGrant.grant(client, tokenUri, assertion);
            out.put("grant_status", grant.statusCode());
            String send = "https://fcm.googleapis.com" + port + "/v1/projects/" + account.get("project_id")
                    + "/messages:send";
            HttpResponse<String> answer = GoogleGrant.send(client, send, GoogleGrant.accessToken(grant),
                    GoogleGrant.notificationTo(token, "From a plain JVM", "Order 42"));
            out.put("send_status", answer.statusCode());
            out.put("send_version", answer.version().toString());
            out.put("send_body", answer.body());
        } catch (Exception e) {
            out.put("exception", e.getClass().getName());
            out.put("error", String.valueOf(e.getMessage()));
        }
        System.out.println(Json.write(out));
    }
}
