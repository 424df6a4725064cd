package dev.mockapns;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How the mock answers pushes to one device token from now on ({@code PUT /api/v1/devices/{token}}): make one with
 * {@link #unregistered()}, {@link #expired()}, {@link #onlyTopics(String...)}, {@link #otherEnvironment()} or
 * {@link #rateLimited(int, Duration)}. Tokens the mock was not told about are live devices (200). The mock checks
 * the state; one it refuses fails {@link MockAPNs#setDevice(String, DeviceState)} with its reason.
 */
public final class DeviceState {
    private final Map<String, Object> body;

    private DeviceState(Map<String, Object> body) {
        this.body = body;
    }

    private static DeviceState state(String name) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("state", name);
        return new DeviceState(body);
    }

    /** The app was removed: pushes get 410 Unregistered, with the time this was set as the timestamp. */
    public static DeviceState unregistered() {
        return state("unregistered");
    }

    /** Like {@link #unregistered()}, with {@code since} as the 410's timestamp. */
    public static DeviceState unregisteredSince(Instant since) {
        DeviceState state = state("unregistered");
        state.body.put("timestamp", since.toEpochMilli());
        return state;
    }

    /** Pushes get 410 ExpiredToken. */
    public static DeviceState expired() {
        return state("expired");
    }

    /** The token accepts these topics only; any other gets 400 DeviceTokenNotForTopic. */
    public static DeviceState onlyTopics(String... topics) {
        DeviceState state = state("topics");
        state.body.put("topics", List.of(topics));
        return state;
    }

    /** The token belongs to the other environment: pushes get 400 BadDeviceToken. */
    public static DeviceState otherEnvironment() {
        return state("otherEnvironment");
    }

    /** After {@code max} pushes within {@code window} (whole seconds, at least 1), pushes get 429 TooManyRequests. */
    public static DeviceState rateLimited(int max, Duration window) {
        DeviceState state = state("rateLimited");
        state.body.put("max", max);
        state.body.put("window_seconds", window.getSeconds());
        return state;
    }

    /**
     * Any body the control API takes, e.g. a change of the virtual device: {@code Map.of("online", false)} (APNs
     * stores its pushes), {@code Map.of("app_state", "background")}, with or without a {@code state}.
     */
    public static DeviceState of(Map<String, ?> body) {
        return new DeviceState(new LinkedHashMap<>(body));
    }

    /**
     * The state by its control API name ({@code unregistered}, {@code expired}, {@code otherEnvironment}); the
     * states that take fields have their own factories.
     */
    public static DeviceState named(String state) {
        return state(state);
    }

    Map<String, Object> body() {
        return body;
    }

    @Override
    public String toString() {
        return "DeviceState" + Json.write(body);
    }
}
