package dev.mockapns;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One rule of the mock's fault plan ({@code POST /api/v1/faults}): what it does to the pushes it hits, which pushes,
 * how many. Start from the action, then narrow it:
 *
 * <pre>{@code mock.addFault(Fault.respond(503, "ServiceUnavailable").topic("com.example.app").count(1));}</pre>
 *
 * <p>Unset match fields match anything; without {@link #count(int)} the rule hits every matching push.
 */
public final class Fault {
    private final Map<String, Object> action;
    private final Map<String, Object> match = new LinkedHashMap<>();
    private Integer count;
    private String name;
    private Double probability;

    private Fault(Map<String, Object> action) {
        this.action = action;
    }

    private static Fault action(String type) {
        Map<String, Object> action = new LinkedHashMap<>();
        action.put("type", type);
        return new Fault(action);
    }

    /** Answers {@code status} with {@code reason} (e.g. 503, "ServiceUnavailable") instead of the real verdict. */
    public static Fault respond(int status, String reason) {
        Fault fault = action("status");
        fault.action.put("status", status);
        if (reason != null) fault.action.put("reason", reason);
        return fault;
    }

    /** Answers {@code status} with the reason APNs gives for it. */
    public static Fault respond(int status) {
        return respond(status, null);
    }

    /** Answers normally, but only after {@code delay} (whole milliseconds). */
    public static Fault delay(Duration delay) {
        Fault fault = action("delay");
        fault.action.put("ms", delay.toMillis());
        return fault;
    }

    /** Never answers: the sender's timeout has to fire. */
    public static Fault stall() {
        return action("stall");
    }

    /** Closes the TCP connection without answering. */
    public static Fault drop() {
        return action("drop");
    }

    /** Sends HTTP/2 GOAWAY with {@code {"reason": reason}} and closes the connection. */
    public static Fault goAway(String reason) {
        Fault fault = action("goaway");
        fault.action.put("reason", reason);
        return fault;
    }

    /** Only pushes to this device token (case-insensitive). */
    public Fault token(String token) {
        match.put("token", token);
        return this;
    }

    /** Only pushes with this {@code apns-topic}. */
    public Fault topic(String topic) {
        match.put("topic", topic);
        return this;
    }

    /** Only pushes with this {@code apns-push-type}. */
    public Fault pushType(String pushType) {
        match.put("push_type", pushType);
        return this;
    }

    /** Only requests whose path starts with {@code prefix}. */
    public Fault pathPrefix(String prefix) {
        match.put("path", prefix);
        return this;
    }

    /** Hits the next {@code count} matching pushes, then stops. */
    public Fault count(int count) {
        if (count < 1) throw new IllegalArgumentException("Fault.count: " + count + " is not 1 or more; leave it unset "
                + "for every matching push");
        this.count = count;
        return this;
    }

    /** The rule's name in records and listings (the mock names it after the action otherwise). */
    public Fault name(String name) {
        this.name = name;
        return this;
    }

    /** Hits a matching push with this probability (0 to 1). */
    public Fault probability(double probability) {
        if (!(probability >= 0 && probability <= 1)) {
            throw new IllegalArgumentException("Fault.probability: " + probability + " is not between 0 and 1");
        }
        this.probability = probability;
        return this;
    }

    /** The rule as the control API takes it. */
    Map<String, Object> body() {
        Map<String, Object> rule = new LinkedHashMap<>();
        rule.put("match", match);
        rule.put("action", action);
        if (count != null) rule.put("count", count);
        if (name != null) rule.put("name", name);
        if (probability != null) rule.put("probability", probability);
        return rule;
    }

    @Override
    public String toString() {
        return "Fault" + Json.write(body());
    }
}
