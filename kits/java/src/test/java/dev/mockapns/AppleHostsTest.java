package dev.mockapns;

import static dev.mockapns.TestSupport.PHONE;
import static dev.mockapns.TestSupport.TOPIC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A sender with Apple's URLs built in (the JDK's HttpClient as a production sender builds it: no proxy, no SSL
 * context, no URL option) reaches the mock through {@link MockAPNs#intercept()}, and only until it is closed.
 */
class AppleHostsTest {
    private static MockAPNs mock;

    @BeforeAll
    static void startMock() {
        mock = TestSupport.start(MockAPNs.builder().appleHosts());
    }

    @AfterAll
    static void stopMock() {
        if (mock != null) mock.close();
    }

    @BeforeEach
    void clear() {
        mock.clear();
    }

    /** What a production sender does: a client with no options of the kit's, a push to {@code origin}. */
    private static HttpResponse<String> send(String origin, String device, String title) throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(origin + "/3/device/" + device))
                .timeout(Duration.ofSeconds(10))
                .header("authorization", "bearer " + mock.token()).header("apns-topic", TOPIC)
                .header("apns-push-type", "alert")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(Map.of("aps", Map.of("alert", Map.of("title", title))))))
                .build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static List<Object> environments() {
        return mock.notifications().stream().map(n -> n.record().get("environment")).collect(Collectors.toList());
    }

    @Test
    void routesAnHttpClientSenderWithApplesUrlsToTheMock() throws Exception {
        try (Interception interception = mock.intercept()) {
            HttpResponse<String> shipped = send("https://api.sandbox.push.apple.com", PHONE, "Shipped");
            assertEquals(200, shipped.statusCode(), shipped.body());
            assertEquals(HttpClient.Version.HTTP_2, shipped.version());
            HttpResponse<String> bad = send("https://api.sandbox.push.apple.com", "not-a-token", "Shipped");
            assertEquals(400, bad.statusCode());
            assertEquals("BadDeviceToken", TestSupport.reason(bad));
            for (String origin : List.of("https://api.push.apple.com", "https://api.push.apple.com:2197",
                    "https://api.development.push.apple.com")) {
                assertEquals(200, send(origin, PHONE, "Again").statusCode(), origin);
            }
            assertTrue(interception.isActive());
        }
        List<Notification> pushes = mock.expect(new Filter().token(PHONE).topic(TOPIC).status(200).count(4));
        assertEquals("Shipped", pushes.get(0).alertTitle());
        // The environment is the one Apple's host name implies.
        assertEquals(List.of("development", "development", "production", "production", "development"), environments());
    }

    @Test
    void routesTheChannelManagementHostsToTheirListeners() throws Exception {
        try (Interception ignored = mock.intercept()) {
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            for (String origin : List.of("https://api-manage-broadcast.sandbox.push.apple.com:2195",
                    "https://api-manage-broadcast.push.apple.com:2196")) {
                HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create(origin
                        + "/1/apps/com.example.app/all-channels")).header("authorization", "bearer " + mock.token()).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, answer.statusCode(), origin + ": " + answer.body());
            }
        }
        // Each host reached its own listener: 2195 is sandbox (development), 2196 production.
        assertEquals(List.of("development", "production"), environments());
    }

    @Test
    void refusesPortsAppleDoesNotServeAndLeavesOtherHostsAlone() throws Exception {
        try (Interception ignored = mock.intercept()) {
            assertThrows(IOException.class, () -> send("https://api.push.apple.com:8443", PHONE, "Wrong port"));
            assertThrows(IOException.class, () -> send("https://api-manage-broadcast.push.apple.com:2195", PHONE, "Wrong"));
            // Other hosts: the mock's own address, with its CA, and its control plane, as without intercept().
            HttpResponse<String> direct = TestSupport.push(TestSupport.http2(mock), mock, PHONE, TOPIC, "Direct");
            assertEquals(200, direct.statusCode());
            HttpResponse<String> health = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(mock.controlUrl() + "/healthz")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, health.statusCode());
        }
        assertEquals(List.of("Direct"), mock.notifications().stream().map(Notification::alertTitle)
                .collect(Collectors.toList()));
    }

    @Test
    void leavesApplesNamesAloneBeforeInterceptAndAfterClose() throws Exception {
        ProxySelector selector = ProxySelector.getDefault();
        SSLContext context = SSLContext.getDefault();
        outside();
        Interception interception = mock.intercept();
        assertTrue(ProxySelector.getDefault() != selector, "the default selector routes Apple's names meanwhile");
        interception.close();
        interception.close(); // again: nothing to do
        assertSame(selector, ProxySelector.getDefault());
        assertSame(context, SSLContext.getDefault());
        outside();
        assertEquals(List.of(), mock.notifications());
    }

    /** A send to Apple's name that goes wherever this machine's resolver says (nowhere without a network), not here. */
    private static void outside() {
        try {
            send("https://api.sandbox.push.apple.com", PHONE, "Outside");
        } catch (Exception elsewhere) {
            // no route, or Apple's own answer: either way not the mock
        }
    }

    @Test
    void refusesASecondInterceptionByThisMockOrAnotherUntilClosed() throws Exception {
        try (MockAPNs other = TestSupport.start(MockAPNs.builder().appleHosts())) {
            Interception theirs = other.intercept();
            MockAPNsException mine = assertThrows(MockAPNsException.class, mock::intercept);
            assertEquals("Apple's host names already go to " + other + "; close() that interception (or the mock) "
                    + "before intercept() again.", mine.getMessage());
            assertEquals("Apple's host names already go to this mock; close() that interception first.",
                    assertThrows(MockAPNsException.class, other::intercept).getMessage());
            theirs.close();
            try (Interception ours = mock.intercept()) {
                assertEquals(200, send("https://api.push.apple.com", PHONE, "Mine").statusCode());
            }
            mock.expect(new Filter().token(PHONE).count(1));
            assertEquals(List.of(), other.notifications());
        }
    }

    @Test
    void closingTheMockEndsItsInterception() {
        ProxySelector selector = ProxySelector.getDefault();
        MockAPNs other = TestSupport.start(MockAPNs.builder().appleHosts());
        Interception interception = other.intercept();
        other.close();
        assertTrue(!interception.isActive());
        assertSame(selector, ProxySelector.getDefault());
        assertEquals("This MockAPNs was closed; start a new one with MockAPNs.start().",
                assertThrows(MockAPNsException.class, other::intercept).getMessage());
    }

    @Test
    void aMockWithoutApplesNamesSaysHowToStartOne() {
        try (MockAPNs plain = TestSupport.start()) {
            assertEquals(Map.of(), plain.applePorts());
            assertEquals("intercept() routes Apple's host names to the mock, which serves them only when started with "
                    + "MockAPNs.builder().appleHosts().start().",
                    assertThrows(MockAPNsException.class, plain::intercept).getMessage());
        }
        assertEquals(List.of(443, 2195, 2196, 2197), mock.applePorts().keySet().stream().sorted()
                .collect(Collectors.toList()));
        assertEquals(5, Interception.APPLE_HOSTS.size());
    }
}
