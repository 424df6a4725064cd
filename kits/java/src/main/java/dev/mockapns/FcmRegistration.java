package dev.mockapns;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * An app instance registered with the mock's FCM ({@code POST /api/v1/fcm/registrations}), as an app gets one from
 * the Firebase SDK: {@link #token()} is what the sender sends to. An iOS registration is backed by the APNs device
 * token {@link #apnsToken()}, so by a virtual iPhone: {@code mock.device(apnsToken)},
 * {@code mock.setDevice(apnsToken, "unregistered")} and faults matching that token are the APNs ones.
 */
public final class FcmRegistration {
    private final Map<String, Object> raw;

    FcmRegistration(Map<String, Object> raw) {
        if (!(raw.get("token") instanceof String)) {
            throw new MockAPNsException("POST /api/v1/fcm/registrations answered no token: " + Json.write(raw));
        }
        this.raw = Collections.unmodifiableMap(raw);
    }

    /** The whole answer of the control API. */
    public Map<String, Object> raw() {
        return raw;
    }

    /** The registration token ({@code <fid>:APA91b…}), the {@code token} of a message to this app instance. */
    public String token() {
        return (String) raw.get("token");
    }

    /** The Firebase installation id: the token's part before {@code :}, the target of a message by {@code fid}. */
    public String fid() {
        Object fid = raw.get("fid");
        return fid instanceof String ? (String) fid : token().split(":", 2)[0];
    }

    /** {@code ios}, {@code android} or {@code web}. */
    public String platform() {
        return string("platform");
    }

    /** The Firebase project the token belongs to. */
    public String project() {
        return string("project");
    }

    /** The app's bundle id (iOS) or package name: an iOS push's {@code apns-topic}. */
    public String bundleId() {
        return string("bundle_id");
    }

    /** The APNs device token behind an iOS registration (its virtual iPhone); null for another platform. */
    public String apnsToken() {
        return string("apns_token");
    }

    /** The topics this app instance is subscribed to. */
    public List<String> topics() {
        List<String> topics = new ArrayList<>();
        if (raw.get("topics") instanceof List) {
            for (Object topic : (List<?>) raw.get("topics")) {
                if (topic instanceof String) topics.add((String) topic);
            }
        }
        return topics;
    }

    private String string(String key) {
        Object value = raw.get(key);
        return value instanceof String ? (String) value : null;
    }

    @Override
    public String toString() {
        return "FcmRegistration(" + platform() + " " + bundleId() + ", project " + project() + ", token "
                + Notification.shortToken(token()) + (apnsToken() != null ? ", APNs token "
                + Notification.shortToken(apnsToken()) : "") + ")";
    }
}
