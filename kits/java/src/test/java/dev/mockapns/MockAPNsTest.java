package dev.mockapns;

import static dev.mockapns.TestSupport.PHONE;
import static dev.mockapns.TestSupport.TABLET;
import static dev.mockapns.TestSupport.TOPIC;
import static dev.mockapns.TestSupport.push;
import static dev.mockapns.TestSupport.reason;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The kit against a real mock (the binary, or the image in container mode), with the JDK's own HTTP/2 client as the
 * sender. One mock serves the class and is cleared before each test, as the JUnit extension does.
 */
class MockAPNsTest {
    private static MockAPNs mock;
    private static HttpClient client;

    @BeforeAll
    static void startMock() {
        mock = TestSupport.start();
        client = TestSupport.http2(mock);
    }

    @AfterAll
    static void stopMock() {
        if (mock != null) mock.close();
    }

    @BeforeEach
    void clear() {
        mock.clear();
    }

    @Test
    void acceptedPushesAreRecordedAndExpected() throws Exception {
        HttpResponse<String> answer = push(client, mock, PHONE, TOPIC, "Shipped");
        assertEquals(200, answer.statusCode(), answer.body());
        assertTrue(answer.headers().firstValue("apns-id").isPresent(), "APNs answers with an apns-id");
        push(client, mock, TABLET, TOPIC, "Packed");

        List<Notification> shipped = mock.expect(new Filter().token(PHONE).topic(TOPIC).status(200).count(1));
        assertEquals(1, shipped.size());
        Notification push = shipped.get(0);
        assertEquals(PHONE, push.token());
        assertEquals(TOPIC, push.topic());
        assertEquals("alert", push.pushType());
        assertEquals(200, push.status());
        assertEquals("Shipped", push.alertTitle());
        assertEquals("Order 42", push.alertBody());
        assertEquals(Map.of("aps", Map.of("alert", Map.of("title", "Shipped", "body", "Order 42"))), push.payload());
        assertEquals(answer.headers().firstValue("apns-id").get(), push.apnsId());
        assertEquals("POST", push.record().get("method"));

        assertEquals(2, mock.expect(new Filter().topic(TOPIC).count(2)).size());
        assertEquals(1, mock.expect(new Filter().token(PHONE.toUpperCase())).size(), "tokens match case-insensitively");
        mock.expect(new Filter().status(400).count(0));
        assertEquals(List.of("Shipped", "Packed"), mock.notifications().stream().map(Notification::alertTitle)
                .collect(java.util.stream.Collectors.toList()), "oldest first");
        long firstSeq = mock.notifications().get(0).seq();
        assertEquals(List.of("Packed"), mock.notifications(new Filter().since(firstSeq)).stream()
                .map(Notification::alertTitle).collect(java.util.stream.Collectors.toList()));
    }

    @Test
    void aMalformedTokenIsABadDeviceToken() throws Exception {
        HttpResponse<String> answer = push(client, mock, "not-a-token", TOPIC, "Shipped");
        assertEquals(400, answer.statusCode());
        assertEquals("BadDeviceToken", reason(answer));
        Notification push = mock.expect(new Filter().reason("BadDeviceToken").count(1)).get(0);
        assertEquals(400, push.status());
        assertEquals("not-a-token", push.token());
        assertEquals("rejected 400 BadDeviceToken", push.responseText());
    }

    /** The message's lines, each clock time (12:00:01.250) as {time}. */
    private static List<String> lines(AssertionError error) {
        return List.of(error.getMessage().replaceAll("\\b\\d{2}:\\d{2}:\\d{2}\\.\\d{3}\\b", "{time}").split("\n"));
    }

    @Test
    void anUnmetExpectationFailsWithTheMocksReportClosestFirst() throws Exception {
        push(client, mock, PHONE, TOPIC, "Shipped");
        push(client, mock, "not-a-token", TOPIC, "Shipped");
        push(client, mock, TABLET, "com.other.app", "Other");
        long first = mock.notifications().get(0).seq();
        AssertionError error = assertThrows(AssertionError.class,
                () -> mock.expect(new Filter().topic(TOPIC).token(PHONE.toUpperCase()).status(410)));
        assertEquals(List.of(
                "expect: FAILED — wanted at least 1 record with token=" + PHONE + ", topic=" + TOPIC + ", status=410; "
                        + "0 matched (of 3 records in the mock's recording).",
                "Closest records:",
                "  #" + first + "  {time}  200 OK  meets 2 of 3; missed: status=410 (found 200)",
                "  #" + (first + 1) + "  {time}  400 BadDeviceToken  meets 1 of 3; missed: token=" + PHONE
                        + " (found \"not-a-token\"); status=410 (found 400)",
                "  #" + (first + 2) + "  {time}  200 OK  meets 0 of 3; missed: token=" + PHONE + " (found \"" + TABLET
                        + "\"); topic=" + TOPIC + " (found \"com.other.app\"); status=410 (found 200)"), lines(error));

        AssertionError tooMany = assertThrows(AssertionError.class, () -> mock.expect(new Filter().topic(TOPIC).count(1)));
        assertEquals(List.of("expect: FAILED — wanted exactly 1 record with topic=" + TOPIC + "; 2 matched (of 3 "
                + "records in the mock's recording).", "Matching records:",
                "  #" + first + "  {time}  200 OK  Shipped — Order 42",
                "  #" + (first + 1) + "  {time}  400 BadDeviceToken  Shipped — Order 42"), lines(tooMany).subList(0, 4));
    }

    @Test
    void payloadConditionsAreCheckedByTheMock() throws Exception {
        push(client, mock, PHONE, TOPIC, "Shipped");
        push(client, mock, PHONE, TOPIC, "Delayed");
        List<Notification> all = mock.notifications();
        assertEquals(List.of(all.get(1).seq()), mock.expect(new Filter().token(PHONE)
                .where("aps.alert.title", "Delayed").where("aps.alert.body=Order 42").count(1)).stream()
                .map(Notification::seq).collect(java.util.stream.Collectors.toList()));
        AssertionError error = assertThrows(AssertionError.class,
                () -> mock.expect(new Filter().where("aps.alert.title", "Cancelled")));
        assertEquals("  #" + all.get(0).seq() + "  {time}  200 OK  meets 0 of 1; missed: aps.alert.title=Cancelled "
                + "(found \"Shipped\")", lines(error).get(lines(error).size() - 1));
    }

    @Test
    void anExpectationOnAnEmptyMockSaysNothingArrived() {
        AssertionError error = assertThrows(AssertionError.class, () -> mock.expect(new Filter().topic(TOPIC)));
        assertEquals("No push reached the mock: is the sender pointed at mock.url() (or mock.http1Url()) and trusting "
                + "mock.sslContext()?\nexpect: FAILED — wanted at least 1 record with topic=" + TOPIC + "; 0 matched "
                + "(of 0 records in the mock's recording).\nNo records arrived at all.", error.getMessage());
    }

    @Test
    void http1SendersAreServedAtHttp1Url() throws Exception {
        assertTrue(mock.http1Url().matches("http://127\\.0\\.0\\.1:\\d+"), mock.http1Url());
        HttpClient http1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<String> answer = http1.send(HttpRequest.newBuilder(URI.create(mock.http1Url() + "/3/device/" + PHONE))
                .header("authorization", "bearer " + mock.token()).header("apns-topic", TOPIC)
                .POST(HttpRequest.BodyPublishers.ofString("{\"aps\":{\"alert\":\"Hi\"}}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), answer.body());
        assertEquals(HttpClient.Version.HTTP_1_1, answer.version());
        mock.expect(new Filter().token(PHONE).status(200).count(1));
    }

    @Test
    void anUnregisteredDeviceAnswers410() throws Exception {
        Map<String, Object> answer = mock.setDevice(PHONE, DeviceState.unregistered());
        assertNotNull(answer.get("device"), "the control API says what it set: " + answer);
        HttpResponse<String> rejected = push(client, mock, PHONE, TOPIC, "Shipped");
        assertEquals(410, rejected.statusCode());
        assertEquals("Unregistered", reason(rejected));
        assertTrue(((Map<?, ?>) Json.parse(rejected.body())).get("timestamp") instanceof Long, rejected.body());
        assertEquals(200, push(client, mock, TABLET, TOPIC, "Shipped").statusCode(), "other devices are live");
        mock.expect(new Filter().token(PHONE).status(410).reason("Unregistered").count(1));

        mock.setDevice(TABLET, "expired");
        assertEquals("ExpiredToken", reason(push(client, mock, TABLET, TOPIC, "Shipped")));
        mock.setDevice(TABLET, DeviceState.onlyTopics("com.other.app"));
        assertEquals("DeviceTokenNotForTopic", reason(push(client, mock, TABLET, TOPIC, "Shipped")));
        mock.forgetDevice(TABLET);
        assertEquals(200, push(client, mock, TABLET, TOPIC, "Shipped").statusCode());
    }

    @Test
    void aStateTheMockRefusesIsAnErrorWithItsReason() {
        MockAPNsException error = assertThrows(MockAPNsException.class,
                () -> mock.setDevice(PHONE, DeviceState.named("asleep")));
        assertTrue(error.getMessage().startsWith("The mock's control API answered PUT /api/v1/devices/" + PHONE
                + " with 400: "), error.getMessage());
        assertTrue(error.getMessage().contains("asleep"), error.getMessage());
    }

    @Test
    void faultsAnswerAsToldThenStop() throws Exception {
        String id = mock.addFault(Fault.respond(503, "ServiceUnavailable").topic(TOPIC).count(1).name("outage"));
        assertFalse(id.isEmpty());
        HttpResponse<String> failed = push(client, mock, PHONE, TOPIC, "Shipped");
        assertEquals(503, failed.statusCode());
        assertEquals("ServiceUnavailable", reason(failed));
        assertEquals(200, push(client, mock, PHONE, TOPIC, "Shipped").statusCode(), "count 1: the next one passes");
        Notification hit = mock.expect(new Filter().status(503).count(1)).get(0);
        assertEquals(List.of("outage"), hit.faults());

        String every = mock.addFault(Fault.respond(429, "TooManyRequests").token(TABLET));
        assertEquals(429, push(client, mock, TABLET, TOPIC, "A").statusCode());
        assertEquals(429, push(client, mock, TABLET, TOPIC, "B").statusCode());
        assertEquals(200, push(client, mock, PHONE, TOPIC, "C").statusCode(), "the rule matches TABLET only");
        mock.removeFault(every);
        assertEquals(200, push(client, mock, TABLET, TOPIC, "D").statusCode());
    }

    @Test
    void aStalledPushIsRecordedAsNotAnswered() throws Exception {
        mock.addFault(Fault.stall().token(PHONE).count(1));
        HttpRequest request = HttpRequest.newBuilder(URI.create(mock.url() + "/3/device/" + PHONE))
                .timeout(Duration.ofMillis(700))
                .header("authorization", "bearer " + mock.token()).header("apns-topic", TOPIC)
                .POST(HttpRequest.BodyPublishers.ofString("{\"aps\":{\"alert\":\"Hi\"}}")).build();
        CompletableFuture<HttpResponse<String>> answer = client.sendAsync(request, HttpResponse.BodyHandlers.ofString());
        Exception timeout = assertThrows(Exception.class, answer::join);
        assertTrue(String.valueOf(timeout.getCause()).contains("HttpTimeoutException"), String.valueOf(timeout));
        Notification stalled = mock.waitFor(new Filter().token(PHONE), Duration.ofSeconds(10)).get(0);
        assertEquals(0, stalled.status());
        assertTrue(stalled.responseText().startsWith("not answered ("), stalled.responseText());
    }

    @Test
    void clearForgetsPushesDevicesAndFaults() throws Exception {
        push(client, mock, PHONE, TOPIC, "Before");
        mock.setDevice(TABLET, DeviceState.unregistered());
        mock.addFault(Fault.respond(500, "InternalServerError").token(PHONE));
        long before = mock.notifications().get(0).seq();

        mock.clear();
        assertEquals(List.of(), mock.notifications());
        assertEquals(200, push(client, mock, TABLET, TOPIC, "After").statusCode(), "device state forgotten");
        assertEquals(200, push(client, mock, PHONE, TOPIC, "After").statusCode(), "fault forgotten");
        assertTrue(mock.notifications().get(0).seq() > before, "record numbering goes on");
    }

    @Test
    void waitForGivesUpSayingHowLongItWaited() {
        AssertionError error = assertThrows(AssertionError.class,
                () -> mock.waitFor(new Filter().topic(TOPIC).count(2), Duration.ofMillis(200)));
        assertEquals("Waited 200 ms.\nNo push reached the mock: is the sender pointed at mock.url() (or mock.http1Url()) "
                + "and trusting mock.sslContext()?\nexpect: FAILED — wanted at least 2 records with topic=" + TOPIC
                + "; 0 matched (of 0 records in the mock's recording).\nNo records arrived at all.", error.getMessage());
    }

    @Test
    void waitForWaitsForPushesSentMeanwhile() throws Exception {
        CompletableFuture<List<Notification>> waiting = CompletableFuture.supplyAsync(
                () -> mock.waitFor(new Filter().token(TABLET).where("aps.alert.title=Late").count(2), Duration.ofSeconds(20)));
        push(client, mock, TABLET, TOPIC, "Late");
        push(client, mock, TABLET, TOPIC, "Late");
        assertEquals(2, waiting.get().size());
    }

    @Test
    void theDeviceShowsWhatItWasSent() throws Exception {
        push(client, mock, PHONE, TOPIC, "Shipped");
        DeviceScreen screen = mock.device(PHONE);
        assertTrue(screen.online());
        assertEquals("Shipped", screen.notifications().get(0).title());
        assertEquals(TOPIC, screen.notifications().get(0).topic());
        mock.setDevice(PHONE, DeviceState.of(Map.of("online", false)));
        push(client, mock, PHONE, TOPIC, "While offline");
        DeviceScreen offline = mock.device(PHONE);
        assertFalse(offline.online());
        assertEquals(1, offline.stored().size(), "APNs stores the push while the device is offline");
    }

    @Test
    void theCredentialsAreTheOnesTheMockTrusts() throws Exception {
        assertEquals("TESTKEY001", mock.keyId());
        assertEquals("TESTTEAM01", mock.teamId());
        assertTrue(Files.isRegularFile(mock.keyFile()), mock.keyFile().toString());
        assertTrue(Files.readString(mock.caFile()).equals(mock.caPem()));
        assertTrue(mock.caPem().startsWith("-----BEGIN CERTIFICATE-----"));
        assertEquals("127.0.0.1", mock.host());
        assertEquals(URI.create(mock.url()).getPort(), mock.port());
        assertEquals(mock.token(), mock.token(), "one token, reused");
        // A client that does not trust the mock's CA is refused by its own TLS stack: the CA is really the one in use.
        HttpClient untrusting = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(mock.url() + "/3/device/" + PHONE))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build();
        Exception refused = assertThrows(Exception.class,
                () -> untrusting.send(request, HttpResponse.BodyHandlers.ofString()));
        assertTrue(refused instanceof SSLHandshakeException || refused.getCause() instanceof SSLHandshakeException,
                String.valueOf(refused));
    }

    @Test
    void aPushWithoutAProviderTokenIsRefused() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(mock.url() + "/3/device/" + PHONE))
                .header("apns-topic", TOPIC).POST(HttpRequest.BodyPublishers.ofString("{\"aps\":{}}")).build();
        HttpResponse<String> answer = client.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(403, answer.statusCode());
        assertEquals("MissingProviderToken", reason(answer));
    }

    @Test
    void closeLeavesNothingRunning() throws Exception {
        MockAPNs own = TestSupport.start();
        assertTrue(own.isRunning());
        own.process().ifPresent(process -> assertTrue(process.isAlive()));
        own.containerName().ifPresent(name -> assertTrue(TestSupport.containerExists(own.engine().orElseThrow(), name)));
        assertEquals(200, push(TestSupport.http2(own), own, PHONE, TOPIC, "Hi").statusCode());
        own.close();
        TestSupport.assertGone(own);
        assertFalse(own.isRunning());
        own.close(); // again: nothing to do
        MockAPNsException closed = assertThrows(MockAPNsException.class, own::notifications);
        assertEquals("This MockAPNs was closed; start a new one with MockAPNs.start().", closed.getMessage());
    }
}
