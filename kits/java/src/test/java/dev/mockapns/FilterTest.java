package dev.mockapns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The queries a Filter and an FcmFilter become (GET /api/v1/notifications and GET /api/v1/expect, GET
 * /api/v1/fcm/messages and GET /api/v1/fcm/expect, whose expectations word a miss: the kit does not), and the
 * one-line summaries of records made here. MockAPNsTest, FcmTest and SpecTest check them against the mock.
 */
class FilterTest {
    private static Notification record(long seq, String token, int status, String reason, String payload) {
        String text = "{\"seq\":" + seq + ",\"method\":\"POST\",\"path\":\"/3/device/" + token + "\",\"device_token\":\""
                + token + "\",\"headers\":[[\"apns-topic\",\"com.example.shop\"],[\"apns-push-type\",\"alert\"]]"
                + (payload != null ? ",\"payload\":" + payload : "") + ",\"response\":{\"status\":" + status
                + (reason != null ? ",\"reason\":\"" + reason + "\"" : "") + "}}";
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = (Map<String, Object>) Json.parse(text);
        return new Notification(fields);
    }

    @Test
    void summariesNameThePushAndTheAnswer() {
        Notification accepted = record(1, TestSupport.PHONE, 200, null,
                "{\"aps\":{\"alert\":{\"title\":\"Shipped\",\"body\":\"Order \\\"42\\\"\"}}}");
        assertEquals("#1 alert push to 00fc13ad…1de8f0, topic com.example.shop: accepted (200); title \"Shipped\", "
                + "body \"Order \\\"42\\\"\"", accepted.summary());
        Notification rejected = record(2, "abc", 410, "Unregistered", "{\"aps\":{\"alert\":\"Hi\"}}");
        assertEquals("#2 alert push to abc, topic com.example.shop: rejected 410 Unregistered; body \"Hi\"",
                rejected.summary());
        assertEquals("Hi", rejected.alertBody());
        assertNull(rejected.alertTitle());
        Notification notJson = record(3, TestSupport.PHONE, 400, "PayloadEmpty", null);
        assertEquals("#3 alert push to 00fc13ad…1de8f0, topic com.example.shop: rejected 400 PayloadEmpty; "
                + "body is not JSON", notJson.summary());
        assertFalse(notJson.hasPayload());
        assertEquals(List.of(List.of("apns-topic", "com.example.shop"), List.of("apns-push-type", "alert")),
                notJson.headers());
    }

    @Test
    void theQueriesTheMockIsAsked() {
        Filter filter = new Filter().topic("a b&c").token(TestSupport.PHONE.toUpperCase()).pushType("alert").status(410)
                .reason("Unregistered").since(4);
        String filters = "topic=a%20b%26c&token=" + TestSupport.PHONE + "&push_type=alert&status=410&reason=Unregistered"
                + "&since=4";
        assertEquals("?" + filters, filter.query(), "the token in lowercase, as the mock records it");
        assertEquals("?" + filters, filter.expectQuery("at_least", 1), "at least 1 is the mock's default");
        filter.where("aps.alert.title=Shipped").where("aps.badge", 3).where("order", Map.of("gift", true))
                .where("aps.alert.body", "Order 42");
        assertEquals("?" + filters + "&where=aps.alert.title%3DShipped&where=aps.badge%3D3"
                + "&where=order%3D%7B%22gift%22%3Atrue%7D&where=aps.alert.body%3DOrder%2042&count=2",
                filter.expectQuery("count", 2));
        assertEquals("?" + filters, filter.query(), "the list query has no payload conditions");
        assertEquals("?at_least=3", new Filter().expectQuery("at_least", 3));
        assertEquals("", new Filter().query());
        assertEquals("Filter(push_type=alert&reason=Unregistered&since=3&count=1)",
                new Filter().pushType("alert").reason("Unregistered").count(1).since(3).toString());
        assertEquals("Filter()", new Filter().toString());
    }

    @Test
    void theQueriesTheMockIsAskedOfFcmRecords() {
        FcmFilter filter = new FcmFilter().project("mockapns-test").name("projects/mockapns-test/messages/0:1")
                .token("fid:APA91b-x_y").topic("a b&c").status(404);
        String filters = "project=mockapns-test&name=projects%2Fmockapns-test%2Fmessages%2F0%3A1&token=fid%3AAPA91b-x_y"
                + "&topic=a%20b%26c&status=404";
        assertEquals("?" + filters, filter.query());
        assertEquals("?" + filters, filter.expectQuery("at_least", 1), "at least 1 is the mock's default");
        assertEquals("?" + filters + "&count=2", filter.expectQuery("count", 2));
        assertEquals("?" + filters + "&at_least=3", filter.expectQuery("at_least", 3));
        assertEquals("?" + filters + "&none=true", filter.expectQuery("none", 0));
        assertEquals("?" + filters + "&limit=5", filter.limit(5).query(), "the list query has the limit");
        assertEquals("FcmFilter.limit is for fcmMessages: an FCM expectation looks at every FCM record (FcmFilter("
                + filters + "&limit=5))", assertThrows(IllegalArgumentException.class,
                        () -> filter.expectQuery("at_least", 1)).getMessage());

        FcmFilter expectation = new FcmFilter().condition("'news' in topics").validateOnly(false).count(1);
        assertEquals("?condition=%27news%27%20in%20topics&validate_only=false&count=1",
                expectation.expectQuery("count", 1));
        assertEquals("FcmFilter(condition=%27news%27%20in%20topics&validate_only=false&count=1)", expectation.toString());
        assertEquals("?condition=%27news%27%20in%20topics&validate_only=false", expectation.query(),
                "the list takes the same filters, without the count");
        assertEquals("?validate_only=true&none=true", new FcmFilter().validateOnly(true).expectQuery("none", 0));
        assertEquals("", new FcmFilter().query());
        assertEquals("", new FcmFilter().count(3).query(), "the list query has no count");
        assertEquals("FcmFilter()", new FcmFilter().toString());
    }

    @Test
    void filtersRefuseNonsense() {
        assertEquals("Filter.count: -1 is negative; use 0 for \"none\", n for exactly n, or leave it unset for at "
                + "least one", assertThrows(IllegalArgumentException.class, () -> new Filter().count(-1)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Filter().status(-200));
        assertThrows(IllegalArgumentException.class, () -> new Filter().since(-1));
        assertEquals("Filter.where: \"aps.badge\" is not PATH=VALUE, e.g. \"aps.alert.title=Shipped\"",
                assertThrows(IllegalArgumentException.class, () -> new Filter().where("aps.badge")).getMessage());
        assertEquals("FcmFilter.count: -1 is negative; use 0 for \"none\", n for exactly n, or leave it unset for at "
                + "least one", assertThrows(IllegalArgumentException.class, () -> new FcmFilter().count(-1)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new FcmFilter().status(0));
        assertThrows(IllegalArgumentException.class, () -> new FcmFilter().limit(0));
    }
}
