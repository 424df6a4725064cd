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
 * <p>The mock decides what matches (the token case-insensitively, everything else exactly). {@link #count(int)} is
 * only for {@link MockAPNs#expect(Filter)}: unset means at least one, 0 none, n exactly n.
 */
public final class Filter {
    private String topic;
    private String token;
    private String pushType;
    private Integer status;
    private String reason;
    private Long since;
    private Integer count;

    /** A filter that matches every push. */
    public Filter() {}

    /** Only pushes with this {@code apns-topic}. */
    public Filter topic(String topic) {
        this.topic = topic;
        return this;
    }

    /** Only pushes to this device token (compared case-insensitively by the mock). */
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

    /** The count {@link MockAPNs#expect(Filter)} wants, or null for at least one. */
    public Integer count() {
        return count;
    }

    /** The record number this filter looks after, or null for the whole recording. */
    public Long since() {
        return since;
    }

    /** One field that is set: its query parameter, its name in messages and its value. */
    static final class Criterion {
        final String param;
        final String name;
        final String value;

        Criterion(String param, String name, String value) {
            this.param = param;
            this.name = name;
            this.value = value;
        }

        /** What {@code n} has for this field, as a failure message shows it. */
        String actual(Notification n) {
            String got;
            switch (param) {
                case "topic": got = n.topic(); break;
                case "token": got = n.token(); break;
                case "push_type": got = n.pushType(); break;
                case "status": return n.responseText();
                default: got = n.reason(); break;
            }
            return got == null ? "absent" : got;
        }
    }

    /** The fields that are set, in the order messages name them (the Go kit's). */
    List<Criterion> criteria() {
        List<Criterion> list = new ArrayList<>();
        if (topic != null) list.add(new Criterion("topic", "topic", topic));
        if (token != null) list.add(new Criterion("token", "device token", token));
        if (pushType != null) list.add(new Criterion("push_type", "push type", pushType));
        if (status != null) list.add(new Criterion("status", "response status", Integer.toString(status)));
        if (reason != null) list.add(new Criterion("reason", "reason", reason));
        return list;
    }

    /** The control API query for these fields and {@code since}: {@code ?topic=...&status=200}, or "". */
    String query() {
        return query(criteria(), since);
    }

    static String query(List<Criterion> criteria, Long since) {
        StringJoiner query = new StringJoiner("&", "?", "").setEmptyValue("");
        for (Criterion c : criteria) {
            query.add(c.param + "=" + URLEncoder.encode(c.value, StandardCharsets.UTF_8));
        }
        if (since != null) query.add("since=" + since);
        return query.toString();
    }

    /**
     * The expectation in words, as the other kits word it: {@code a notification}, {@code no notification},
     * {@code exactly 2 notifications}, then {@code with topic com.example.app, response status 200}. With
     * {@code atLeast} the count is a minimum: {@code at least 2 notifications}.
     */
    String describe(boolean atLeast) {
        String text;
        if (count == null || (atLeast && count <= 1)) text = "a notification";
        else if (atLeast) text = "at least " + count + " notifications";
        else if (count == 0) text = "no notification";
        else text = "exactly " + count + (count == 1 ? " notification" : " notifications");
        StringJoiner parts = new StringJoiner(", ");
        for (Criterion c : criteria()) parts.add(c.name + " " + c.value);
        return parts.length() == 0 ? text : text + " with " + parts;
    }

    @Override
    public String toString() {
        return "Filter(" + describe(false) + (since != null ? ", since #" + since : "") + ")";
    }
}
