package dev.mockapns;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * APNs provider tokens (ES256 JWTs) minted by the mock's own binary: {@code mockapns token --json} (in container
 * mode the image's, through the engine's exec), as kits/spec/launch.json's {@code provider_token} says; the kit signs
 * nothing itself. One token is handed out for {@link #REUSE}: APNs refuses a new one more often than every 20 minutes
 * (TooManyProviderTokenUpdates) and one older than an hour (ExpiredProviderToken).
 */
public final class ProviderToken {
    /** How long {@link #get()} hands out the same token (launch.json's reuse_seconds). */
    public static final Duration REUSE = Duration.ofMinutes(30);

    private final Supplier<String> mint;
    private final Clock clock;
    private String token;
    private Instant minted;

    ProviderToken(Supplier<String> mint, Clock clock) {
        this.mint = mint;
        this.clock = clock;
    }

    /** The current token: minted on first use and again once it is {@link #REUSE} old. */
    public synchronized String get() {
        Instant now = clock.instant();
        if (token == null || !now.isBefore(minted.plus(REUSE))) {
            token = mint.get();
            minted = now;
        }
        return token;
    }

    /** The token of {@code mockapns token --json}'s answer ({@code {token, team_id, key_id, issued_at}}). */
    static String minted(Exec.Result result) {
        if (!result.ok()) {
            throw new MockAPNsException("`" + result.commandLine() + "` failed (exit " + result.code + "): "
                    + result.lastLine());
        }
        try {
            Object token = Json.parseObject(result.stdout, "the answer of `" + result.commandLine() + "`").get("token");
            if (token instanceof String) return (String) token;
        } catch (IllegalArgumentException notJson) {
            // said below
        }
        throw new MockAPNsException("`" + result.commandLine() + "` printed no token JSON: "
                + result.stdout.substring(0, Math.min(200, result.stdout.length())));
    }
}
