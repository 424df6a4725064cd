package dev.mockapns;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * Which recorded pushes to look at, by the control API's filters; fields left unset match anything:
 *
 * <pre>{@code new Filter().topic("com.example.app").token(deviceToken).status(200).count(1)}</pre>
 *
 * <p>The mock decides what matches. {@link #count(int)} and {@link #where(String...)} are for
 * {@link MockAPNs#expect(Filter)} and {@link MockAPNs#waitFor(Filter, java.time.Duration)}, which the mock checks
 * ({@code GET /api/v1/expect}): count unset means at least one, 0 none, n exactly n.
 */
public final class Filter {
    private String topic;
    private String token;
    private String pushType;
    private Integer status;
    private String reason;
    private Long since;
    private Integer count;
    private final List<String> where = new ArrayList<>();

    /** A filter that matches every push. */
    public Filter() {}

    /** Only pushes with this {@code apns-topic}. */
    public Filter topic(String topic) {
        this.topic = topic;
        return this;
    }

    /**
     * Only pushes to this device token. The kit asks for it in lowercase, as the mock records a token sent in
     * lowercase hex; its expectation compares tokens exactly.
     */
    public Filter token(String token) {
        this.token = token;
        return this;
    }

    /** Only pushes with this {@code apns-push-type} ({@code alert}, {@code background}, ...). */
    public Filter pushType(String pushType) {
        this.pushType = pushType;
        return this;
    }

    /** Only pushes the mock answered with this status (200, 400, 410, ...; 0: not answered because of a fault). */
    public Filter status(int status) {
        if (status < 0 || status > 999) {
            throw new IllegalArgumentException("Filter.status: " + status + " is not an HTTP status (200, 400, 410, ...; "
                    + "0 for pushes a fault left unanswered)");
        }
        this.status = status;
        return this;
    }

    /** Only pushes rejected with this APNs reason ({@code BadDeviceToken}, {@code Unregistered}, ...). */
    public Filter reason(String reason) {
        this.reason = reason;
        return this;
    }

    /**
     * Only pushes recorded after record number {@code seq} (see {@link Notification#seq()}): e.g. the last seq
     * before the step under test.
     */
    public Filter since(long seq) {
        if (seq < 0) throw new IllegalArgumentException("Filter.since: a record number is 0 or more, not " + seq);
        this.since = seq;
        return this;
    }

    /** For {@link MockAPNs#expect(Filter)}: exactly this many pushes must match (0: none). Unset: at least one. */
    public Filter count(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("Filter.count: " + count + " is negative; use 0 for \"none\", n for "
                    + "exactly n, or leave it unset for at least one");
        }
        this.count = count;
        return this;
    }

    /**
     * For expectations: payload conditions, each {@code PATH=VALUE}, e.g. {@code "aps.alert.title=Shipped"},
     * {@code "aps.badge=3"} (a number matches numerically; true, false and null their JSON; an object or array its
     * compact JSON). Added to earlier ones.
     */
    public Filter where(String... conditions) {
        for (String condition : conditions) {
            if (condition == null || !condition.contains("=")) {
                throw new IllegalArgumentException("Filter.where: \"" + condition + "\" is not PATH=VALUE, e.g. "
                        + "\"aps.alert.title=Shipped\"");
            }
            where.add(condition);
        }
        return this;
    }

    /**
     * For expectations: the payload's value at {@code path} (dots between keys, e.g. {@code aps.alert.title}) must
     * be {@code value}: a String as it is, anything else as its JSON ({@code 3}, {@code true}, {@code null}).
     */
    public Filter where(String path, Object value) {
        return where(path + "=" + (value instanceof String ? (String) value : Json.write(value)));
    }

    /** The count {@link MockAPNs#expect(Filter)} wants, or null for at least one. */
    public Integer count() {
        return count;
    }

    /** The record number this filter looks after, or null for the whole recording. */
    public Long since() {
        return since;
    }

    /** The payload conditions, as given. */
    public List<String> where() {
        return List.copyOf(where);
    }

    /** The query of GET /api/v1/notifications for these filters: {@code ?topic=...&status=200}, or "". */
    String query() {
        return questioned(filters());
    }

    /**
     * The query of GET /api/v1/expect: the filters, one {@code where} per condition and the quantity
     * ({@code quantity} "count" or "at_least" with {@code n}; at least 1 is the mock's default and not sent).
     */
    String expectQuery(String quantity, int n) {
        StringJoiner query = filters();
        for (String condition : where) query.add("where=" + encode(condition));
        if (!(quantity.equals("at_least") && n == 1)) query.add(quantity + "=" + n);
        return questioned(query);
    }

    private static String questioned(StringJoiner query) {
        return query.length() == 0 ? "" : "?" + query;
    }

    private StringJoiner filters() {
        StringJoiner query = new StringJoiner("&");
        if (topic != null) query.add("topic=" + encode(topic));
        // Lowercase: the mock records tokens as hex, and its expectation compares them exactly (its list filter does not).
        if (token != null) query.add("token=" + encode(token.toLowerCase(java.util.Locale.ROOT)));
        if (pushType != null) query.add("push_type=" + encode(pushType));
        if (status != null) query.add("status=" + status);
        if (reason != null) query.add("reason=" + encode(reason));
        if (since != null) query.add("since=" + since);
        return query;
    }

    /** {@code value} for a query; a space as %20, which the mock reads as one (it takes '+' literally). */
    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** The filter as GET /api/v1/expect's query, e.g. {@code Filter(topic=com.example.app&count=1)}. */
    @Override
    public String toString() {
        String query = count != null ? expectQuery("count", count) : expectQuery("at_least", 1);
        return "Filter(" + (query.isEmpty() ? "" : query.substring(1)) + ")";
    }
}
