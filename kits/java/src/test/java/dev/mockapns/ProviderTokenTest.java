package dev.mockapns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Reusing a minted token, and reading what `mockapns token --json` answers. SpecTest runs the real minting. */
class ProviderTokenTest {
    @Test
    void theSameTokenIsHandedOutFor30Minutes() {
        MutableClock clock = new MutableClock(Instant.parse("2025-01-01T00:00:00Z"));
        AtomicInteger minted = new AtomicInteger();
        ProviderToken tokens = new ProviderToken(() -> "token-" + minted.incrementAndGet(), clock);
        assertEquals(Duration.ofMinutes(30), ProviderToken.REUSE);
        assertEquals("token-1", tokens.get());
        clock.now = clock.now.plus(Duration.ofMinutes(30)).minusMillis(1);
        assertEquals("token-1", tokens.get(), "reused just short of 30 minutes");
        clock.now = clock.now.plusMillis(1);
        assertEquals("token-2", tokens.get(), "a new one at 30 minutes");
        assertEquals(2, minted.get());
    }

    @Test
    void readsTheBinarysAnswerAndExplainsAFailure() {
        List<String> command = List.of("mockapns", "token", "--json");
        assertEquals("eyJ.eyJ.sig", ProviderToken.minted(new Exec.Result(command, 0,
                "{\"token\":\"eyJ.eyJ.sig\",\"team_id\":\"TESTTEAM01\",\"key_id\":\"TESTKEY001\",\"issued_at\":1}\n", "")));
        assertEquals("`mockapns token --json` failed (exit 2): Error: cannot read the key",
                assertThrows(MockAPNsException.class, () -> ProviderToken.minted(new Exec.Result(command, 2, "",
                        "Error: cannot read the key\n"))).getMessage());
        assertEquals("`mockapns token --json` printed no token JSON: eyJ.eyJ.sig",
                assertThrows(MockAPNsException.class, () -> ProviderToken.minted(new Exec.Result(command, 0,
                        "eyJ.eyJ.sig", ""))).getMessage());
    }

    /** A clock a test moves by hand. */
    static final class MutableClock extends Clock {
        Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
