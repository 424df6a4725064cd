package dev.mockapns;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Which recorded FCM requests to look at, by the control API's filters of {@code GET /api/v1/fcm/messages}; fields
 * left unset match anything:
 *
 * <pre>{@code mock.fcmMessages(new FcmFilter().token(registration.token()).status(200))}</pre>
 */
public final class FcmFilter {
    private final Map<String, String> params = new LinkedHashMap<>();

    /** A filter that matches every FCM request. */
    public FcmFilter() {}

    /** Only requests to this project's {@code messages:send}. */
    public FcmFilter project(String project) {
        return set("project", project);
    }

    /** Only the message answered with this name: the whole {@code projects/P/messages/ID}, or its last part. */
    public FcmFilter name(String name) {
        return set("name", name);
    }

    /** Only messages to this registration token. */
    public FcmFilter token(String token) {
        return set("token", token);
    }

    /** Only messages to this topic. */
    public FcmFilter topic(String topic) {
        return set("topic", topic);
    }

    /** Only requests answered with this HTTP status. */
    public FcmFilter status(int status) {
        if (status < 100 || status > 999) {
            throw new IllegalArgumentException("FcmFilter.status: " + status + " is not an HTTP status");
        }
        return set("status", Integer.toString(status));
    }

    /** Only the newest {@code limit} of the matching requests. */
    public FcmFilter limit(int limit) {
        if (limit < 1) throw new IllegalArgumentException("FcmFilter.limit: " + limit + " is not 1 or more");
        return set("limit", Integer.toString(limit));
    }

    private FcmFilter set(String param, String value) {
        if (value == null) params.remove(param);
        else params.put(param, value);
        return this;
    }

    /** The control API query: {@code ?token=...&status=200}, or "". */
    String query() {
        StringJoiner query = new StringJoiner("&", "?", "").setEmptyValue("");
        params.forEach((param, value) -> query.add(param + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8)));
        return query.toString();
    }

    @Override
    public String toString() {
        return "FcmFilter" + params;
    }
}
