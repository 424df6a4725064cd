package dev.mockapns;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * What a virtual device shows at one instant ({@code GET /api/v1/devices/{token}/screen}), computed by the mock from
 * the device's changes and the pushes it accepted for it: Notification Center (newest first), the badge, what APNs
 * stores while the device is offline. {@link #raw()} has the rest (groups, sounds, Live Activities, budget).
 */
public final class DeviceScreen {
    private final Map<String, Object> raw;

    DeviceScreen(Map<String, Object> raw) {
        this.raw = Collections.unmodifiableMap(raw);
    }

    /** The whole answer of the control API. */
    public Map<String, Object> raw() {
        return raw;
    }

    /** The instant shown, in milliseconds since 1970. */
    public long at() {
        return raw.get("at") instanceof Number ? ((Number) raw.get("at")).longValue() : 0;
    }

    /** Whether the device is online (offline: APNs stores its pushes). */
    public boolean online() {
        return Boolean.TRUE.equals(raw.get("online"));
    }

    /** The app's state: {@code foreground}, {@code background}, {@code notRunning} or {@code forceQuit}. */
    public String appState() {
        return raw.get("app_state") instanceof String ? (String) raw.get("app_state") : null;
    }

    /** The app icon's badge. */
    public long badge() {
        return raw.get("badge") instanceof Number ? ((Number) raw.get("badge")).longValue() : 0;
    }

    /** Notification Center, newest first. */
    public List<Shown> notifications() {
        List<Shown> shown = new ArrayList<>();
        for (Map<String, Object> item : objects("notifications")) shown.add(new Shown(item));
        return shown;
    }

    /** The pushes APNs holds for the device while it is offline. */
    public List<Map<String, Object>> stored() {
        return objects("stored");
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> objects(String key) {
        List<Map<String, Object>> list = new ArrayList<>();
        if (raw.get(key) instanceof List) {
            for (Object item : (List<?>) raw.get(key)) {
                if (item instanceof Map) list.add((Map<String, Object>) item);
            }
        }
        return list;
    }

    @Override
    public String toString() {
        return "DeviceScreen" + Json.write(raw);
    }

    /** One notification in Notification Center. */
    public static final class Shown {
        private final Map<String, Object> raw;

        Shown(Map<String, Object> raw) {
            this.raw = Collections.unmodifiableMap(raw);
        }

        public String title() {
            return text("title");
        }

        public String body() {
            return text("body");
        }

        public String apnsId() {
            return text("apns_id");
        }

        public String threadId() {
            return text("thread_id");
        }

        public String collapseId() {
            return text("collapse_id");
        }

        public String topic() {
            return text("topic");
        }

        public Map<String, Object> raw() {
            return raw;
        }

        private String text(String key) {
            return raw.get(key) instanceof String ? (String) raw.get(key) : null;
        }

        @Override
        public String toString() {
            return "Shown" + Json.write(raw);
        }
    }
}
