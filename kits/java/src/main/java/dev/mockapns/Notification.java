package dev.mockapns;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * One request the mock answered, accepted or rejected, as its control API recorded it ({@code GET
 * /api/v1/notifications}), read the way a sender's test thinks about it. {@link #record()} is the whole record
 * (headers, payload, auth, lint, faults, ...).
 */
public final class Notification {
    private final Map<String, Object> record;

    /** Wraps one record of the control API (a parsed JSON object). */
    public Notification(Map<String, Object> record) {
        if (record == null) throw new NullPointerException("record");
        this.record = Collections.unmodifiableMap(record);
    }

    /** The whole record as the control API returned it (unmodifiable). */
    public Map<String, Object> record() {
        return record;
    }

    /** Position in the recording, from 1 (numbering goes on after {@link MockAPNs#clear()}). */
    public long seq() {
        Object seq = record.get("seq");
        return seq instanceof Number ? ((Number) seq).longValue() : 0;
    }

    /** The device token from the path; null when the path had none. */
    public String token() {
        return string(record.get("device_token"));
    }

    /** The first value of a request header, by lowercase name (e.g. {@code apns-collapse-id}); null when absent. */
    public String header(String name) {
        for (List<String> pair : headers()) {
            if (pair.get(0).equals(name)) return pair.get(1);
        }
        return null;
    }

    /** The request headers in wire order: [name (lowercase), value] pairs. */
    public List<List<String>> headers() {
        List<List<String>> pairs = new ArrayList<>();
        if (record.get("headers") instanceof List) {
            for (Object pair : (List<?>) record.get("headers")) {
                if (pair instanceof List && ((List<?>) pair).size() == 2
                        && ((List<?>) pair).get(0) instanceof String && ((List<?>) pair).get(1) instanceof String) {
                    pairs.add(List.of((String) ((List<?>) pair).get(0), (String) ((List<?>) pair).get(1)));
                }
            }
        }
        return pairs;
    }

    /** {@code apns-topic}; null when absent. */
    public String topic() {
        return header("apns-topic");
    }

    /** {@code apns-push-type}; null when absent. */
    public String pushType() {
        return header("apns-push-type");
    }

    /** The status the mock answered: 200, 400, 410, ...; 0 when a fault stalled, reset or dropped the request. */
    public int status() {
        Object status = response().get("status");
        return status instanceof Number ? ((Number) status).intValue() : 0;
    }

    /** The APNs reason of a rejection ({@code Unregistered}, {@code BadDeviceToken}, ...); null for a 200. */
    public String reason() {
        return string(response().get("reason"));
    }

    /** The {@code apns-id} the mock answered with; null when it did not answer. */
    public String apnsId() {
        return string(response().get("apns_id"));
    }

    /** The names of the fault rules that fired for this request (empty when none did). */
    public List<String> faults() {
        List<String> names = new ArrayList<>();
        if (record.get("faults") instanceof List) {
            for (Object name : (List<?>) record.get("faults")) {
                if (name instanceof String) names.add((String) name);
            }
        }
        return names;
    }

    /**
     * The body as parsed JSON ({@code Map<String, Object>} for an APNs payload; see {@link Json}); null when it was
     * not JSON (then {@link #hasPayload()} is false).
     */
    public Object payload() {
        return record.get("payload");
    }

    /** Whether the body was JSON (the record has a {@code payload}). */
    public boolean hasPayload() {
        return record.containsKey("payload");
    }

    /** {@code aps.alert.title}; null when absent. */
    public String alertTitle() {
        Object alert = alert();
        return alert instanceof Map ? string(((Map<?, ?>) alert).get("title")) : null;
    }

    /** {@code aps.alert.body}, or {@code aps.alert} when the alert is a plain string; null when absent. */
    public String alertBody() {
        Object alert = alert();
        if (alert instanceof String) return (String) alert;
        return alert instanceof Map ? string(((Map<?, ?>) alert).get("body")) : null;
    }

    /** {@code accepted (200)}, {@code rejected 410 Unregistered}, or {@code not answered (stall)}. */
    public String responseText() {
        int status = status();
        if (status == 200) return "accepted (200)";
        if (status == 0) {
            List<String> faults = faults();
            return "not answered (" + (faults.isEmpty() ? "fault" : String.join(", ", faults)) + ")";
        }
        return "rejected " + status + (reason() != null ? " " + reason() : "");
    }

    /**
     * One line for a failure message, e.g. {@code #3 alert push to 00fc13ad…1de8f0, topic com.example.shop:
     * accepted (200); title "Shipped", body "Order 42"} (the other kits' wording).
     */
    public String summary() {
        StringBuilder text = new StringBuilder("#").append(seq()).append(' ');
        text.append(pushType() != null ? pushType() + " push" : "push");
        text.append(" to ").append(shortToken(token()));
        if (topic() != null) text.append(", topic ").append(topic());
        text.append(": ").append(responseText());
        List<String> details = new ArrayList<>();
        if (alertTitle() != null) details.add("title " + Json.write(alertTitle()));
        if (alertBody() != null) details.add("body " + Json.write(alertBody()));
        if (!hasPayload()) details.add("body is not JSON");
        if (!details.isEmpty()) text.append("; ").append(String.join(", ", details));
        return text.toString();
    }

    @Override
    public String toString() {
        return "Notification " + summary();
    }

    /** The first 8 and last 6 characters of a long token, as the other kits show it. */
    static String shortToken(String token) {
        if (token == null) return "(no device token)";
        return token.length() <= 16 ? token : token.substring(0, 8) + "…" + token.substring(token.length() - 6);
    }

    private Map<?, ?> response() {
        Object response = record.get("response");
        return response instanceof Map ? (Map<?, ?>) response : Map.of();
    }

    private Object alert() {
        Object payload = payload();
        Object aps = payload instanceof Map ? ((Map<?, ?>) payload).get("aps") : null;
        return aps instanceof Map ? ((Map<?, ?>) aps).get("alert") : null;
    }

    private static String string(Object value) {
        return value instanceof String ? (String) value : null;
    }
}
