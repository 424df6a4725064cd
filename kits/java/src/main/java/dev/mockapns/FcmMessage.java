package dev.mockapns;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * One request to {@code messages:send} that the mock answered, accepted or refused ({@code GET
 * /api/v1/fcm/messages}): the message as sent, the answer, and the APNs pushes it became ({@link #apnsIds()};
 * {@link MockAPNs#apnsPushesOf(FcmMessage)} reads them). {@link #record()} is the whole record.
 */
public final class FcmMessage {
    private final Map<String, Object> record;

    /** Wraps one record of the control API (a parsed JSON object). */
    public FcmMessage(Map<String, Object> record) {
        if (record == null) throw new NullPointerException("record");
        this.record = Collections.unmodifiableMap(record);
    }

    /** The whole record as the control API returned it (unmodifiable). */
    public Map<String, Object> record() {
        return record;
    }

    /** Position in the FCM recording, from 1. */
    public long seq() {
        Object seq = record.get("seq");
        return seq instanceof Number ? ((Number) seq).longValue() : 0;
    }

    /** {@code projects/P/messages/ID} as answered ({@code …/fake_message_id} for a dry run); null when the request was refused. */
    public String name() {
        return string(record.get("name"));
    }

    /** The project of the request's path. */
    public String project() {
        return string(record.get("project"));
    }

    /** The HTTP status answered. */
    public int status() {
        Object status = record.get("status");
        return status instanceof Number ? ((Number) status).intValue() : 0;
    }

    /** {@code validate_only} (the SDKs' dry run): checked, not delivered. */
    public boolean validateOnly() {
        return Boolean.TRUE.equals(record.get("validate_only"));
    }

    /** The {@code message} member as the sender wrote it (empty when the body had none). */
    @SuppressWarnings("unchecked")
    public Map<String, Object> message() {
        Object message = record.get("message");
        return message instanceof Map ? (Map<String, Object>) message : Map.of();
    }

    /** The registration token sent to, for a message to one device; null otherwise. */
    public String token() {
        return string(record.get("token"));
    }

    /** The topic sent to; null otherwise. */
    public String topic() {
        return string(record.get("topic"));
    }

    /** The condition sent to; null otherwise. */
    public String condition() {
        return string(record.get("condition"));
    }

    /** The {@code apns-id}s of the APNs pushes the message became, one per iOS device reached. */
    public List<String> apnsIds() {
        List<String> ids = new ArrayList<>();
        if (record.get("apns_ids") instanceof List) {
            for (Object id : (List<?>) record.get("apns_ids")) {
                if (id instanceof String) ids.add((String) id);
            }
        }
        return ids;
    }

    /** {@code h2} or {@code http/1.1}: how the sender spoke. */
    public String transport() {
        return string(record.get("transport"));
    }

    /** The answer's body as the sender got it (parsed JSON). */
    public Object answer() {
        return record.get("answer");
    }

    /** The google.rpc status of a refusal ({@code INVALID_ARGUMENT}, {@code NOT_FOUND}, ...); null for a 200. */
    public String errorStatus() {
        Map<?, ?> error = error();
        return error != null ? string(error.get("status")) : null;
    }

    /** FCM's {@code errorCode} of a refusal ({@code UNREGISTERED}, {@code SENDER_ID_MISMATCH}, ...); null otherwise. */
    public String errorCode() {
        for (Map<?, ?> detail : details()) {
            if (String.valueOf(detail.get("@type")).endsWith("google.firebase.fcm.v1.FcmError")) {
                return string(detail.get("errorCode"));
            }
        }
        return null;
    }

    /** {@code notification.title} as sent; null when absent. */
    public String title() {
        Object notification = message().get("notification");
        return notification instanceof Map ? string(((Map<?, ?>) notification).get("title")) : null;
    }

    /** {@code notification.body} as sent; null when absent. */
    public String body() {
        Object notification = message().get("notification");
        return notification instanceof Map ? string(((Map<?, ?>) notification).get("body")) : null;
    }

    /** The {@code details} of a refusal's error (FcmError, ApnsError, BadRequest, ...), in order. */
    public List<Map<?, ?>> details() {
        List<Map<?, ?>> details = new ArrayList<>();
        Map<?, ?> error = error();
        if (error != null && error.get("details") instanceof List) {
            for (Object detail : (List<?>) error.get("details")) {
                if (detail instanceof Map) details.add((Map<?, ?>) detail);
            }
        }
        return details;
    }

    /** {@code accepted (200), 1 APNs push} or {@code refused 404 NOT_FOUND/UNREGISTERED} (the Python kit's words). */
    public String responseText() {
        if (status() == 200) {
            int pushes = apnsIds().size();
            return "accepted (200)" + (validateOnly() ? ", dry run" : "")
                    + (pushes > 0 ? ", " + pushes + " APNs push" + (pushes == 1 ? "" : "es") : "");
        }
        List<String> words = new ArrayList<>();
        if (errorStatus() != null) words.add(errorStatus());
        if (errorCode() != null) words.add(errorCode());
        return "refused " + status() + (words.isEmpty() ? "" : " " + String.join("/", words));
    }

    /** Two FcmMessages are equal when their records are. */
    @Override
    public boolean equals(Object other) {
        return other instanceof FcmMessage && ((FcmMessage) other).record.equals(record);
    }

    @Override
    public int hashCode() {
        return record.hashCode();
    }

    @Override
    public String toString() {
        String to = token() != null ? "token " + Notification.shortToken(token())
                : topic() != null ? "topic " + topic() : condition() != null ? "condition " + condition() : "no target";
        return "FcmMessage #" + seq() + " to " + to + ", project " + project() + ": " + responseText()
                + (title() != null ? "; title " + Json.write(title()) : "");
    }

    private Map<?, ?> error() {
        Object answer = answer();
        Object error = answer instanceof Map ? ((Map<?, ?>) answer).get("error") : null;
        return error instanceof Map ? (Map<?, ?>) error : null;
    }

    private static String string(Object value) {
        return value instanceof String ? (String) value : null;
    }
}
