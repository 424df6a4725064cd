package dev.mockapns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The wording of failure messages and summaries, over records made here. The source below filters as the mock's
 * control API does (the token case-insensitively, the rest exactly, since = records numbered above it); MockAPNsTest
 * checks the same messages against the mock itself.
 */
class ExpectationsTest {
    private final List<Notification> recorded = new ArrayList<>();
    private final List<String> queries = new ArrayList<>();

    private final Expectations.Source source = query -> {
        queries.add(query);
        Map<String, String> params = new LinkedHashMap<>();
        if (!query.isEmpty()) {
            for (String pair : query.substring(1).split("&")) {
                String[] kv = pair.split("=", 2);
                params.put(kv[0], URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
            }
        }
        List<Notification> out = new ArrayList<>();
        for (Notification n : recorded) {
            boolean keep = true;
            for (Map.Entry<String, String> p : params.entrySet()) {
                String want = p.getValue();
                switch (p.getKey()) {
                    case "token": keep &= n.token() != null && n.token().equalsIgnoreCase(want); break;
                    case "topic": keep &= want.equals(n.topic()); break;
                    case "push_type": keep &= want.equals(n.pushType()); break;
                    case "status": keep &= Integer.parseInt(want) == n.status(); break;
                    case "reason": keep &= want.equals(n.reason()); break;
                    case "since": keep &= n.seq() > Long.parseLong(want); break;
                    default: throw new AssertionError("unknown filter " + p.getKey());
                }
            }
            if (keep) out.add(n);
        }
        return out;
    };

    private Notification record(String token, String topic, int status, String reason, String payload) {
        String headers = "[[\"apns-topic\",\"" + topic + "\"],[\"apns-push-type\",\"alert\"]]";
        String text = "{\"seq\":" + (recorded.size() + 1) + ",\"method\":\"POST\",\"path\":\"/3/device/" + token
                + "\",\"device_token\":\"" + token + "\",\"headers\":" + headers
                + (payload != null ? ",\"payload\":" + payload : "")
                + ",\"response\":{\"status\":" + status + (reason != null ? ",\"reason\":\"" + reason + "\"" : "")
                + "}}";
        @SuppressWarnings("unchecked")
        Notification n = new Notification((Map<String, Object>) Json.parse(text));
        recorded.add(n);
        return n;
    }

    private String failure(Filter filter) {
        List<Notification> matching = source.fetch(filter.query());
        assertFalse(Expectations.satisfied(filter.count(), matching.size()), "the expectation should fail");
        return Expectations.failureMessage(filter, matching, source, false);
    }

    @Test
    void summariesNameThePushAndTheAnswer() {
        Notification accepted = record(TestSupport.PHONE, "com.example.shop", 200, null,
                "{\"aps\":{\"alert\":{\"title\":\"Shipped\",\"body\":\"Order \\\"42\\\"\"}}}");
        assertEquals("#1 alert push to 00fc13ad…1de8f0, topic com.example.shop: accepted (200); title \"Shipped\", "
                + "body \"Order \\\"42\\\"\"", accepted.summary());
        Notification rejected = record("abc", "com.example.shop", 410, "Unregistered", "{\"aps\":{\"alert\":\"Hi\"}}");
        assertEquals("#2 alert push to abc, topic com.example.shop: rejected 410 Unregistered; body \"Hi\"",
                rejected.summary());
        assertEquals("Hi", rejected.alertBody());
        assertNull(rejected.alertTitle());
        Notification notJson = record(TestSupport.PHONE, "com.example.shop", 400, "PayloadEmpty", null);
        assertEquals("#3 alert push to 00fc13ad…1de8f0, topic com.example.shop: rejected 400 PayloadEmpty; "
                + "body is not JSON", notJson.summary());
        assertFalse(notJson.hasPayload());
        assertEquals(List.of(List.of("apns-topic", "com.example.shop"), List.of("apns-push-type", "alert")),
                notJson.headers());
    }

    @Test
    void noPushesAtAll() {
        assertEquals("Expected a notification with topic com.example.app, but the mock received no notifications. "
                + "Is the sender pointed at mock.url(), trusting mock.sslContext() and speaking HTTP/2?",
                failure(new Filter().topic("com.example.app")));
        assertEquals("Expected exactly 2 notifications, but the mock received no notifications after #7. "
                + "Is the sender pointed at mock.url(), trusting mock.sslContext() and speaking HTTP/2?",
                failure(new Filter().count(2).since(7)));
    }

    @Test
    void nearestPushesFirstWithEachMismatchSpelledOut() {
        record(TestSupport.TABLET, "com.other.app", 200, null, "{\"aps\":{\"alert\":{\"title\":\"A\"}}}");
        record(TestSupport.PHONE.toUpperCase(), "com.example.app", 410, "Unregistered", "{}");
        record(TestSupport.TABLET, "com.example.app", 200, null, "{}");
        String message = failure(new Filter().topic("com.example.app").token(TestSupport.PHONE).status(200));
        assertEquals(String.join("\n",
                "Expected a notification with topic com.example.app, device token " + TestSupport.PHONE
                        + ", response status 200, but none of the 3 received matched.",
                "Received, closest match first:",
                "  #2 alert push to 00FC13AD…1DE8F0, topic com.example.app: rejected 410 Unregistered — has 2 of 3",
                "      response status: expected 200, got rejected 410 Unregistered",
                "  #3 alert push to abababab…ababab, topic com.example.app: accepted (200) — has 2 of 3",
                "      device token: expected " + TestSupport.PHONE + ", got " + TestSupport.TABLET,
                "  #1 alert push to abababab…ababab, topic com.other.app: accepted (200); title \"A\" — has 1 of 3",
                "      topic: expected com.example.app, got com.other.app",
                "      device token: expected " + TestSupport.PHONE + ", got " + TestSupport.TABLET), message);
        // One query for everything, then one per field: the mock decides which pushes have each.
        assertEquals(List.of("?topic=com.example.app&token=" + TestSupport.PHONE + "&status=200", "",
                "?topic=com.example.app", "?token=" + TestSupport.PHONE, "?status=200"), queries);
    }

    @Test
    void tooManyMatchesAreListed() {
        for (int i = 0; i < 7; i++) record(TestSupport.PHONE, "com.example.app", 200, null, "{}");
        assertEquals(String.join("\n",
                "Expected exactly 1 notification with topic com.example.app, but 7 matched:",
                "  #1 alert push to 00fc13ad…1de8f0, topic com.example.app: accepted (200)",
                "  #2 alert push to 00fc13ad…1de8f0, topic com.example.app: accepted (200)",
                "  #3 alert push to 00fc13ad…1de8f0, topic com.example.app: accepted (200)",
                "  #4 alert push to 00fc13ad…1de8f0, topic com.example.app: accepted (200)",
                "  #5 alert push to 00fc13ad…1de8f0, topic com.example.app: accepted (200)",
                "  … and 2 more"), failure(new Filter().topic("com.example.app").count(1)));
        assertTrue(failure(new Filter().status(200).count(0)).startsWith(
                "Expected no notification with response status 200, but 7 matched:\n"));
    }

    @Test
    void tooFewMatchesNameTheMatchesAndListTheOthers() {
        record(TestSupport.PHONE, "com.example.app", 200, null, "{}");
        record(TestSupport.PHONE, "com.example.app", 400, "BadDeviceToken", "{}");
        assertEquals(String.join("\n",
                "Expected exactly 2 notifications with response status 200, but only 1 matched (#1).",
                "Other notifications, closest match first:",
                "  #2 alert push to 00fc13ad…1de8f0, topic com.example.app: rejected 400 BadDeviceToken",
                "      response status: expected 200, got rejected 400 BadDeviceToken"),
                failure(new Filter().status(200).count(2)));
        assertEquals("Expected exactly 3 notifications, but the mock received only 2.", failure(new Filter().count(3)));
    }

    @Test
    void theOnlyPushDidNotMatch() {
        record(TestSupport.PHONE, "com.example.app", 200, null, "{}");
        assertEquals(String.join("\n",
                "Expected a notification with reason Unregistered, but the only notification received did not match.",
                "Received, closest match first:",
                "  #1 alert push to 00fc13ad…1de8f0, topic com.example.app: accepted (200)",
                "      reason: expected Unregistered, got absent"), failure(new Filter().reason("Unregistered")));
    }

    @Test
    void atLeastWordingForWaitFor() {
        record(TestSupport.PHONE, "com.example.app", 200, null, "{}");
        Filter filter = new Filter().topic("com.example.app").count(3);
        assertEquals("Expected at least 3 notifications with topic com.example.app, but only 1 matched (#1).",
                Expectations.failureMessage(filter, source.fetch(filter.query()), source, true));
    }

    @Test
    void filtersRefuseNonsense() {
        assertEquals("Filter.count: -1 is negative; use 0 for \"none\", n for exactly n, or leave it unset for at "
                + "least one", assertThrows(IllegalArgumentException.class, () -> new Filter().count(-1)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Filter().status(-200));
        assertThrows(IllegalArgumentException.class, () -> new Filter().since(-1));
        assertEquals("?topic=a+b%26c&push_type=alert&since=4",
                new Filter().topic("a b&c").pushType("alert").since(4).query());
        assertEquals("Filter(exactly 1 notification with push type alert, reason Unregistered, since #3)",
                new Filter().pushType("alert").reason("Unregistered").count(1).since(3).toString());
    }
}
