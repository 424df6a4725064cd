package dev.mockapns;

import static dev.mockapns.TestSupport.TOPIC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The FCM front door through the kit ({@code MockAPNs.builder().fcm()}), with the JDK's HttpClient over HTTP/2
 * doing what firebase-admin-java does on the wire (GoogleGrant): the service account's RS256 grant, then
 * {@code messages:send}; each iOS message is checked in the FCM record and in the APNs push it became. One mock
 * serves the class (process or container mode), cleared before each test.
 */
class FcmTest {
    private static MockAPNs mock;
    private static HttpClient client;

    @BeforeAll
    static void startMock() {
        mock = TestSupport.start(MockAPNs.builder().fcm());
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(mock.fcmSslContext())
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    @AfterAll
    static void stopMock() {
        if (mock != null) mock.close();
    }

    @BeforeEach
    void clear() {
        mock.clear();
    }

    private static String sendUrl() {
        return mock.fcmUrl() + "/v1/projects/" + MockAPNs.FCM_PROJECT + "/messages:send";
    }

    /** A bearer token for the mock's service account, bought as firebase-admin-java buys one. */
    private static String bearer() throws Exception {
        Map<String, Object> account = GoogleGrant.serviceAccount(mock.fcmServiceAccount());
        String assertion = GoogleGrant.assertion(account, GoogleGrant.privateKey(account),
                GoogleGrant.FIREBASE_ADMIN_SCOPES, System.currentTimeMillis() / 1000);
        HttpResponse<String> grant = GoogleGrant.grant(client, mock.fcmUrl() + "/token", assertion);
        assertEquals(200, grant.statusCode(), grant.body());
        Map<?, ?> answer = (Map<?, ?>) Json.parse(grant.body());
        assertEquals("Bearer", answer.get("token_type"), grant.body());
        assertEquals(3599L, answer.get("expires_in"), grant.body());
        return GoogleGrant.accessToken(grant);
    }

    private static Map<?, ?> error(HttpResponse<String> answer) {
        return (Map<?, ?>) ((Map<?, ?>) Json.parse(answer.body())).get("error");
    }

    /** The detail of {@code error} whose @type ends with {@code type}. */
    private static Map<?, ?> detail(Map<?, ?> error, String type) {
        for (Object detail : (List<?>) error.get("details")) {
            if (String.valueOf(((Map<?, ?>) detail).get("@type")).endsWith(type)) return (Map<?, ?>) detail;
        }
        throw new AssertionError("no " + type + " detail in " + Json.write(error));
    }

    @Test
    void theMockHandsOutWhatAFirebaseSenderNeeds() throws Exception {
        assertTrue(mock.servesFcm());
        assertTrue(mock.fcmUrl().startsWith("https://127.0.0.1:"), mock.fcmUrl());
        assertTrue(mock.fcmHttpsPort() > 0);
        Map<String, Object> account = GoogleGrant.serviceAccount(mock.fcmServiceAccount());
        assertEquals("service_account", account.get("type"));
        assertEquals(MockAPNs.FCM_PROJECT, account.get("project_id"));
        assertEquals("https://oauth2.googleapis.com/token", account.get("token_uri"));
        assertTrue(account.get("client_email") instanceof String && account.get("private_key_id") instanceof String);
        // google-auth-library-java reads a PKCS#8 key only.
        assertNotNull(GoogleGrant.privateKey(account));
        assertTrue(Files.readString(mock.fcmCaFile()).startsWith("-----BEGIN CERTIFICATE-----"));

        // The CA is the mock's own: the JDK's default trust refuses the FCM port.
        HttpClient untrusting = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(sendUrl())).POST(HttpRequest.BodyPublishers.noBody())
                .build();
        Exception refused = assertThrows(Exception.class, () -> untrusting.send(request, HttpResponse.BodyHandlers.ofString()));
        assertTrue(refused instanceof SSLHandshakeException || refused.getCause() instanceof SSLHandshakeException,
                String.valueOf(refused));
    }

    @Test
    void aSendAsFirebaseAdminJavaMakesItReachesTheIphone() throws Exception {
        FcmRegistration phone = mock.registerFcm(TOPIC);
        assertEquals("ios", phone.platform());
        assertEquals(MockAPNs.FCM_PROJECT, phone.project());
        assertTrue(phone.token().startsWith(phone.fid() + ":APA91b"), phone.token());
        assertNotNull(phone.apnsToken());

        HttpResponse<String> answer = GoogleGrant.send(client, sendUrl(), bearer(),
                GoogleGrant.notificationTo(phone.token(), "Shipped", "Order 42"));
        assertEquals(200, answer.statusCode(), answer.body());
        assertEquals(HttpClient.Version.HTTP_2, answer.version());
        String name = (String) ((Map<?, ?>) Json.parse(answer.body())).get("name");
        assertTrue(name.startsWith("projects/" + MockAPNs.FCM_PROJECT + "/messages/0:"), name);

        List<FcmMessage> records = mock.fcmMessages(new FcmFilter().name(name));
        assertEquals(1, records.size(), String.valueOf(mock.fcmMessages()));
        FcmMessage record = records.get(0);
        assertEquals(200, record.status());
        assertEquals(name, record.name());
        assertEquals(phone.token(), record.token());
        assertEquals("h2", record.transport());
        assertEquals("Shipped", record.title());
        assertEquals("accepted (200), 1 APNs push", record.responseText());
        assertEquals(List.of(record), mock.fcmMessages(new FcmFilter().token(phone.token()).status(200)));

        List<Notification> pushes = mock.apnsPushesOf(record);
        assertEquals(1, pushes.size());
        Notification push = pushes.get(0);
        assertTrue(phone.apnsToken().equalsIgnoreCase(push.token()), push.token());
        assertEquals(TOPIC, push.topic());
        assertEquals(200, push.status());
        assertEquals("Shipped", push.alertTitle());
        assertEquals("Order 42", push.alertBody());
        Map<?, ?> payload = (Map<?, ?>) push.payload();
        assertNotNull(payload.get("gcm.message_id"), Json.write(payload));
        assertEquals(phone.fid(), payload.get("google.c.fid"), Json.write(payload));
        assertEquals("42", payload.get("orderId"), "data keys at the top level, beside aps");
        assertEquals("Shipped", mock.device(phone.apnsToken()).notifications().get(0).title());
    }

    @Test
    void anApnsTokenMarkedUnregisteredIs404Unregistered() throws Exception {
        FcmRegistration phone = mock.registerFcm(TOPIC);
        mock.setDevice(phone.apnsToken(), "unregistered");
        HttpResponse<String> answer = GoogleGrant.send(client, sendUrl(), bearer(),
                GoogleGrant.notificationTo(phone.token(), "Too late", "Order 42"));
        assertEquals(404, answer.statusCode(), answer.body());
        Map<?, ?> error = error(answer);
        assertEquals("NOT_FOUND", error.get("status"));
        assertEquals("UNREGISTERED", detail(error, "google.firebase.fcm.v1.FcmError").get("errorCode"));
        Map<?, ?> apns = detail(error, "google.firebase.fcm.v1.ApnsError");
        assertEquals(410L, apns.get("statusCode"));
        assertEquals("Unregistered", apns.get("reason"));

        FcmMessage record = mock.fcmMessages(new FcmFilter().token(phone.token())).get(0);
        assertEquals(404, record.status());
        assertEquals("UNREGISTERED", record.errorCode());
        assertEquals("refused 404 NOT_FOUND/UNREGISTERED", record.responseText());
        assertEquals(null, record.name());
        mock.expect(new Filter().token(phone.apnsToken()).status(410).reason("Unregistered").count(1));
        assertTrue(mock.device(phone.apnsToken()).notifications().isEmpty());
    }

    /** The message's lines, each clock time (12:00:01.250) as {time}. */
    private static List<String> lines(AssertionError error) {
        return List.of(error.getMessage().replaceAll("\\b\\d{2}:\\d{2}:\\d{2}\\.\\d{3}\\b", "{time}").split("\n"));
    }

    private static List<Long> seqs(List<FcmMessage> messages) {
        List<Long> seqs = new ArrayList<>();
        for (FcmMessage message : messages) seqs.add(message.seq());
        return seqs;
    }

    @Test
    void expectFcmIsCheckedAndWordedByTheMock() throws Exception {
        FcmRegistration phone = mock.registerFcm(TOPIC);
        String bearer = bearer();
        assertEquals(200, GoogleGrant.send(client, sendUrl(), bearer,
                GoogleGrant.notificationTo(phone.token(), "Shipped", "Order 42")).statusCode());
        mock.setDevice(phone.apnsToken(), "unregistered");
        assertEquals(404, GoogleGrant.send(client, sendUrl(), bearer,
                GoogleGrant.notificationTo(phone.token(), "Too late", "Order 42")).statusCode());
        List<FcmMessage> all = mock.fcmMessages();
        assertEquals(2, all.size(), String.valueOf(all));

        List<FcmMessage> accepted = mock.expectFcm(new FcmFilter().token(phone.token()).status(200).count(1));
        assertEquals(List.of(all.get(0)), accepted);
        assertEquals("Shipped", accepted.get(0).title());
        assertEquals(all, mock.expectFcm(new FcmFilter().project(MockAPNs.FCM_PROJECT).token(phone.token())),
                "at least one: every match, oldest first");
        assertEquals(List.of(), mock.expectFcm(new FcmFilter().name(all.get(0).name()).status(200).validateOnly(true)
                .count(0)), "none: nothing to return");
        assertEquals(seqs(all), seqs(mock.expectFcm(new FcmFilter().validateOnly(false).count(2))));
        assertEquals(List.of(), mock.expectFcm(new FcmFilter().condition("'news' in topics").count(0)));

        AssertionError missed = assertThrows(AssertionError.class,
                () -> mock.expectFcm(new FcmFilter().token(phone.token()).status(403).count(1)));
        String token = phone.token();
        String shortToken = "token " + token.substring(0, 8) + "…" + token.substring(token.length() - 4);
        String id = all.get(0).name().substring(all.get(0).name().lastIndexOf('/') + 1);
        assertEquals(List.of("expect: FAILED — wanted exactly 1 FCM record with token=" + token + ", status=403; 0 "
                        + "matched (of 2 FCM records in the mock's FCM records).",
                "Closest FCM records:",
                "  #" + all.get(1).seq() + "  {time}  404 UNREGISTERED  " + shortToken + "  meets 1 of 2; missed: "
                        + "status=403 (found 404 UNREGISTERED)",
                "  #" + all.get(0).seq() + "  {time}  200 " + id + "  " + shortToken + "  meets 1 of 2; missed: "
                        + "status=403 (found 200 " + id + ")"), lines(missed), "the mock's message, unchanged");

        AssertionError tooMany = assertThrows(AssertionError.class,
                () -> mock.expectFcm(new FcmFilter().token(phone.token()).count(0)));
        assertTrue(tooMany.getMessage().startsWith("expect: FAILED — wanted no FCM records with token=" + phone.token()
                + "; 2 matched"), tooMany.getMessage());
    }

    @Test
    void waitForFcmAsksUntilABackgroundSendArrives() throws Exception {
        FcmRegistration phone = mock.registerFcm(TOPIC);
        String bearer = bearer();
        java.util.concurrent.CompletableFuture<Integer> sent = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                Thread.sleep(300);
                return GoogleGrant.send(client, sendUrl(), bearer,
                        GoogleGrant.notificationTo(phone.token(), "Later", "Order 42")).statusCode();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        AssertionError early = assertThrows(AssertionError.class, () -> mock.expectFcm(new FcmFilter().token(phone.token())));
        assertTrue(lines(early).get(0).startsWith("No FCM request reached the mock: is the sender pointed at "
                + "mock.fcmUrl()"), early.getMessage());
        assertTrue(lines(early).get(1).startsWith("expect: FAILED — wanted at least 1 FCM record with token="
                + phone.token()), early.getMessage());

        List<FcmMessage> arrived = mock.waitForFcm(new FcmFilter().token(phone.token()).status(200), Duration.ofSeconds(20));
        assertEquals(200, (int) sent.get(20, TimeUnit.SECONDS));
        assertEquals(1, arrived.size());
        assertEquals("Later", arrived.get(0).title());

        AssertionError late = assertThrows(AssertionError.class,
                () -> mock.waitForFcm(new FcmFilter().token(phone.token()).count(2), Duration.ofMillis(150)));
        assertEquals("Waited 150 ms.", lines(late).get(0));
        assertTrue(lines(late).get(1).startsWith("expect: FAILED — wanted at least 2 FCM records with token="
                + phone.token() + "; 1 matched (of 1 FCM record"), late.getMessage());
    }

    @Test
    void theGrantAndTheBearerTokenAreCheckedAsGoogleChecksThem() throws Exception {
        Map<String, Object> account = GoogleGrant.serviceAccount(mock.fcmServiceAccount());
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        PrivateKey stranger = generator.generateKeyPair().getPrivate();
        String forged = GoogleGrant.assertion(account, stranger, GoogleGrant.FIREBASE_ADMIN_SCOPES,
                System.currentTimeMillis() / 1000);
        HttpResponse<String> refused = GoogleGrant.grant(client, mock.fcmUrl() + "/token", forged);
        assertEquals(400, refused.statusCode(), refused.body());
        assertEquals("invalid_grant", ((Map<?, ?>) Json.parse(refused.body())).get("error"), refused.body());

        FcmRegistration phone = mock.registerFcm(TOPIC);
        Map<String, Object> message = GoogleGrant.notificationTo(phone.token(), "No token", "Order 42");
        HttpResponse<String> anonymous = GoogleGrant.send(client, sendUrl(), null, message);
        assertEquals(401, anonymous.statusCode(), anonymous.body());
        assertEquals("UNAUTHENTICATED", error(anonymous).get("status"));
        mock.expect(new Filter().count(0));

        // Another project's service account buys a token that project's sends only.
        Path other = mock.newFcmServiceAccount("mockapns-other");
        Map<String, Object> otherAccount = GoogleGrant.serviceAccount(other);
        assertEquals("mockapns-other", otherAccount.get("project_id"));
        String otherBearer = GoogleGrant.accessToken(GoogleGrant.grant(client, mock.fcmUrl() + "/token",
                GoogleGrant.assertion(otherAccount, GoogleGrant.privateKey(otherAccount),
                        GoogleGrant.FIREBASE_ADMIN_SCOPES, System.currentTimeMillis() / 1000)));
        HttpResponse<String> denied = GoogleGrant.send(client, sendUrl(), otherBearer, message);
        assertEquals(403, denied.statusCode(), denied.body());
        assertEquals("PERMISSION_DENIED", error(denied).get("status"));
    }

    @Test
    void aMockWithoutFcmSaysHowToGetIt() {
        try (MockAPNs plain = TestSupport.start()) {
            assertFalse(plain.servesFcm());
            MockAPNsException error = assertThrows(MockAPNsException.class, plain::fcmUrl);
            assertEquals("fcmUrl(): this mock serves no FCM; start it with MockAPNs.builder().fcm().start().",
                    error.getMessage());
            assertThrows(MockAPNsException.class, () -> plain.registerFcm(TOPIC));
            assertEquals("expectFcm(): this mock serves no FCM; start it with MockAPNs.builder().fcm().start().",
                    assertThrows(MockAPNsException.class, () -> plain.expectFcm(new FcmFilter())).getMessage());
            plain.clear(); // no FCM records to forget, and no error for it
        }
    }

    @Test
    void aBinaryWithoutFcmIsNamedAsTheProblem(@TempDir Path dir) throws Exception {
        Path old = TestSupport.script(dir, "mockapns", "echo \"Error: Unknown option '--fcm'\" >&2; exit 64");
        MockAPNsException error = assertThrows(MockAPNsException.class,
                () -> MockAPNs.builder().binary(old).fcm().start());
        assertTrue(error.getMessage().endsWith("\nThis mockapns does not know --fcm (MockAPNs.builder().fcm()): point "
                + "MOCKAPNS_BIN at a build with the FCM front door."), error.getMessage());
    }

    /**
     * A JVM that knows nothing of the mock (FcmChildSender: Google's names, the JDK's HttpClient as built) reaches it
     * through two system properties: {@code javax.net.ssl.trustStore}, a PKCS12 store of the mock's CA made with
     * keytool, and {@code jdk.net.hosts.file}, a hosts file naming Google's three hosts. As root the mock binds
     * Google's 443 (on a loopback address of its own, so nothing else on 443 is in the way) and the sender's URLs are
     * Google's, unchanged; otherwise, and for a container, the port is the one the mock got. Without the trust store
     * the same JVM is refused.
     */
    @Test
    void aPlainJvmReachesTheMockUnderGooglesNamesWithATrustStoreAndAHostsFile(@TempDir Path dir) throws Exception {
        boolean root = isRoot();
        String address = TestSupport.containerMode() ? "127.0.0.1" : randomLoopback();
        MockAPNs own = TestSupport.containerMode() ? null : TestSupport.start(MockAPNs.builder().fcm()
                .args(root ? List.of("--host", address, "--fcm-https-port", "443") : List.of("--host", address)));
        MockAPNs target = own != null ? own : mock;
        try {
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
            Path trustStore = dir.resolve("mockapns-ca.p12");
            Exec.Result imported = Exec.run(List.of(keytool.toString(), "-importcert", "-noprompt", "-alias",
                    "mockapns-fcm", "-file", target.fcmCaFile().toString(), "-keystore", trustStore.toString(),
                    "-storetype", "PKCS12", "-storepass", "changeit"), System.getenv(), Duration.ofSeconds(60));
            assertEquals(0, imported.code, imported.stdout + imported.stderr);
            Path hosts = dir.resolve("hosts");
            Files.writeString(hosts, address + " fcm.googleapis.com oauth2.googleapis.com iid.googleapis.com\n");

            FcmRegistration phone = target.registerFcm(TOPIC);
            List<String> port = target.fcmHttpsPort() == 443 ? List.of() : List.of(String.valueOf(target.fcmHttpsPort()));
            List<String> trust = List.of("-Djavax.net.ssl.trustStore=" + trustStore,
                    "-Djavax.net.ssl.trustStorePassword=changeit", "-Djavax.net.ssl.trustStoreType=PKCS12");

            Map<?, ?> sent = child(java, trust, hosts, target.fcmServiceAccount(), phone.token(), port);
            assertEquals(address, sent.get("resolved"), "fcm.googleapis.com from the hosts file: " + sent);
            assertEquals(200L, sent.get("grant_status"), String.valueOf(sent));
            assertEquals(200L, sent.get("send_status"), String.valueOf(sent));
            assertEquals("HTTP_2", sent.get("send_version"));
            String name = (String) ((Map<?, ?>) Json.parse((String) sent.get("send_body"))).get("name");
            FcmMessage record = target.fcmMessages(new FcmFilter().name(name)).get(0);
            assertEquals(phone.token(), record.token());
            Notification push = target.apnsPushesOf(record).get(0);
            assertEquals("From a plain JVM", push.alertTitle());
            assertNotNull(((Map<?, ?>) push.payload()).get("gcm.message_id"));
            if (root && own != null) assertEquals(443, target.fcmHttpsPort(), "as root, on Google's own port");

            Map<?, ?> untrusted = child(java, List.of(), hosts, target.fcmServiceAccount(), phone.token(), port);
            assertEquals("javax.net.ssl.SSLHandshakeException", untrusted.get("exception"), String.valueOf(untrusted));
            assertEquals(null, untrusted.get("grant_status"), "refused before the grant: " + untrusted);
        } finally {
            if (own != null) own.close();
        }
    }

    /** Runs FcmChildSender in a JVM of its own with these properties; its one line of JSON. */
    private static Map<?, ?> child(Path java, List<String> trust, Path hosts, Path account, String token,
                                   List<String> port) throws Exception {
        String classpath = System.getProperty("mockapns.test.classpath");
        assertTrue(classpath != null, "run-tests.sh passes -Dmockapns.test.classpath");
        List<String> command = new ArrayList<>(List.of(java.toString()));
        command.addAll(trust);
        command.addAll(List.of("-Djdk.net.hosts.file=" + hosts, "-cp", classpath, FcmChildSender.class.getName(),
                account.toString(), token));
        command.addAll(port);
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the child JVM finished");
            String line = out.readLine();
            assertEquals(0, process.exitValue(), "the child JVM exited with " + process.exitValue() + ": " + line);
            return (Map<?, ?>) Json.parse(line);
        } finally {
            process.destroyForcibly();
        }
    }

    private static boolean isRoot() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (Exception notLinux) {
            return false;
        }
    }

    /** A loopback address other than 127.0.0.1 (Linux routes all of 127.0.0.0/8 to lo). */
    private static String randomLoopback() {
        SecureRandom random = new SecureRandom();
        return "127." + (100 + random.nextInt(100)) + "." + random.nextInt(256) + "." + (1 + random.nextInt(254));
    }
}
