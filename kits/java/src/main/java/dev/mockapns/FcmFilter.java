package dev.mockapns;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.StringJoiner;

/**
 * Which recorded FCM requests to look at, by the control API's filters; fields left unset match anything:
 *
 * <pre>{@code mock.expectFcm(new FcmFilter().token(registration.token()).status(200).count(1))}</pre>
 *
 * <p>The mock decides what matches. {@link MockAPNs#fcmMessages(FcmFilter)} asks {@code GET /api/v1/fcm/messages}
 * (project, name, token, topic, condition, validate only, status, limit); {@link MockAPNs#expectFcm(FcmFilter)} and
 * {@link MockAPNs#waitForFcm(FcmFilter, java.time.Duration)} ask {@code GET /api/v1/fcm/expect}, which takes the same
 * filters and {@link #count(int)} (unset: at least one, 0 none, n exactly n), but no limit.
 */
public final class FcmFilter {
    private String project;
    private String name;
    private String token;
    private String topic;
    private String condition;
    private Integer status;
    private Boolean validateOnly;
    private Integer limit;
    private Integer count;

    /** A filter that matches every FCM request. */
    public FcmFilter() {}

    /** Only requests to this project's {@code messages:send}. */
    public FcmFilter project(String project) {
        this.project = project;
        return this;
    }

    /** Only the message answered with this name: the whole {@code projects/P/messages/ID}, or its last part. */
    public FcmFilter name(String name) {
        this.name = name;
        return this;
    }

    /** Only messages to this registration token. */
    public FcmFilter token(String token) {
        this.token = token;
        return this;
    }

    /** Only messages to this topic. */
    public FcmFilter topic(String topic) {
        this.topic = topic;
        return this;
    }

    /** Only messages to this condition, as written ({@code 'news' in topics}). */
    public FcmFilter condition(String condition) {
        this.condition = condition;
        return this;
    }

    /** Only requests answered with this HTTP status. */
    public FcmFilter status(int status) {
        if (status < 100 || status > 999) {
            throw new IllegalArgumentException("FcmFilter.status: " + status + " is not an HTTP status");
        }
        this.status = status;
        return this;
    }

    /** Only dry runs ({@code validate_only}, true) or only real sends (false). */
    public FcmFilter validateOnly(boolean validateOnly) {
        this.validateOnly = validateOnly;
        return this;
    }

    /** For {@link MockAPNs#fcmMessages(FcmFilter)}: only the newest {@code limit} of the matching requests. */
    public FcmFilter limit(int limit) {
        if (limit < 1) throw new IllegalArgumentException("FcmFilter.limit: " + limit + " is not 1 or more");
        this.limit = limit;
        return this;
    }

    /** For {@link MockAPNs#expectFcm(FcmFilter)}: exactly this many requests must match (0: none). Unset: at least one. */
    public FcmFilter count(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("FcmFilter.count: " + count + " is negative; use 0 for \"none\", n for "
                    + "exactly n, or leave it unset for at least one");
        }
        this.count = count;
        return this;
    }

    /** The count {@link MockAPNs#expectFcm(FcmFilter)} wants, or null for at least one. */
    public Integer count() {
        return count;
    }

    /** The query of GET /api/v1/fcm/messages: {@code ?token=...&status=200}, or "" (the count aside). */
    String query() {
        StringJoiner query = filters();
        if (limit != null) query.add("limit=" + limit);
        return questioned(query);
    }

    /**
     * The query of GET /api/v1/fcm/expect: the filters and the quantity ({@code quantity} "count" or "at_least" with
     * {@code n}, or "none"; at least 1 is the mock's default and not sent). An IllegalArgumentException for a limit,
     * which an expectation does not take.
     */
    String expectQuery(String quantity, int n) {
        if (limit != null) {
            throw new IllegalArgumentException("FcmFilter.limit is for fcmMessages: an FCM expectation looks at every "
                    + "FCM record (" + this + ")");
        }
        StringJoiner query = filters();
        if (quantity.equals("none")) query.add("none=true");
        else if (!(quantity.equals("at_least") && n == 1)) query.add(quantity + "=" + n);
        return questioned(query);
    }

    private StringJoiner filters() {
        StringJoiner query = new StringJoiner("&");
        if (project != null) query.add("project=" + encode(project));
        if (name != null) query.add("name=" + encode(name));
        if (token != null) query.add("token=" + encode(token));
        if (topic != null) query.add("topic=" + encode(topic));
        if (status != null) query.add("status=" + status);
        if (condition != null) query.add("condition=" + encode(condition));
        if (validateOnly != null) query.add("validate_only=" + validateOnly);
        return query;
    }

    private static String questioned(StringJoiner query) {
        return query.length() == 0 ? "" : "?" + query;
    }

    /** {@code value} for a query; a space as %20, which the mock reads as one (it takes '+' literally). */
    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** The filter as its query, e.g. {@code FcmFilter(token=abc&status=200&count=1)}. */
    @Override
    public String toString() {
        StringJoiner query = filters();
        if (limit != null) query.add("limit=" + limit);
        if (count != null) query.add("count=" + count);
        return "FcmFilter(" + query + ")";
    }
}
