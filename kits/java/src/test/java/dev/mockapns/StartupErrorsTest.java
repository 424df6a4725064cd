package dev.mockapns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input at start-up, and a mock that dies: each a MockAPNsException a stranger can act on. */
class StartupErrorsTest {
    @TempDir
    Path dir;

    /** An environment with nothing on PATH but an empty folder, and no MOCKAPNS_* variables. */
    private Map<String, String> bareEnvironment() throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("PATH", Files.createDirectories(dir.resolve("empty-bin")).toString());
        return env;
    }

    @Test
    void noBinaryAndNoEngineSaysBothWaysToFixIt() throws Exception {
        MockAPNsException error = assertThrows(MockAPNsException.class,
                () -> MockAPNs.builder().environment(bareEnvironment()).start());
        assertEquals("No mockapns to run: MOCKAPNS_BIN is not set, there is no mockapns on PATH, and MOCKAPNS_IMAGE is "
                + "not set. Either build the binary (`swift build --product mockapns`, or unpack the `make dist` tarball) "
                + "and set MOCKAPNS_BIN to it or put it on PATH; or run the container image: set "
                + "MOCKAPNS_IMAGE=mockapns:latest (built by `make image`) and install docker or podman (neither is on "
                + "PATH).", error.getMessage());
    }

    @Test
    void noBinaryButAnEngineNamesTheEngine() throws Exception {
        Map<String, String> env = bareEnvironment();
        Path podman = TestSupport.script(Files.createDirectories(dir.resolve("engines")), "podman", "exit 0");
        env.put("PATH", env.get("PATH") + ":" + podman.getParent());
        MockAPNsException error = assertThrows(MockAPNsException.class, () -> MockAPNs.builder().environment(env).start());
        assertTrue(error.getMessage().endsWith("set MOCKAPNS_IMAGE=mockapns:latest (built by `make image`) — podman is "
                + "installed (" + podman + ")."), error.getMessage());
    }

    @Test
    void anImageWithoutAnEngineSaysSo() throws Exception {
        Map<String, String> env = bareEnvironment();
        env.put("MOCKAPNS_IMAGE", "mockapns:latest");
        MockAPNsException error = assertThrows(MockAPNsException.class, () -> MockAPNs.builder().environment(env).start());
        assertEquals("MockAPNs needs docker or podman to run the image mockapns:latest (MOCKAPNS_IMAGE), and neither is "
                + "on PATH. Install one, or run the mockapns binary instead: unset MOCKAPNS_IMAGE and set MOCKAPNS_BIN "
                + "to it or put it on PATH.", error.getMessage());

        env.put("MOCKAPNS_CONTAINER_ENGINE", "nerdctl");
        error = assertThrows(MockAPNsException.class, () -> MockAPNs.builder().environment(env).start());
        assertEquals("MOCKAPNS_CONTAINER_ENGINE is 'nerdctl', which is not an executable on PATH; install it, or set it "
                + "to docker or podman.", error.getMessage());
    }

    @Test
    void aMissingOrUnrunnableBinaryIsNamed() throws Exception {
        Map<String, String> env = bareEnvironment();
        Path missing = dir.resolve("no-such-mockapns");
        env.put("MOCKAPNS_BIN", missing.toString());
        MockAPNsException error = assertThrows(MockAPNsException.class, () -> MockAPNs.builder().environment(env).start());
        assertEquals("MOCKAPNS_BIN is " + missing + ", but there is no file there. Build mockapns (`swift build "
                + "--product mockapns`, or the `make dist` tarball) and point it at the binary.", error.getMessage());

        Path notExecutable = Files.writeString(dir.resolve("mockapns.txt"), "not a program");
        error = assertThrows(MockAPNsException.class,
                () -> MockAPNs.builder().environment(bareEnvironment()).binary(notExecutable).start());
        assertEquals("The binary given to MockAPNs.builder().binary() is " + notExecutable + ", which is not an "
                + "executable file (run `chmod +x " + notExecutable + "`); point it at the mockapns binary.",
                error.getMessage());
    }

    @Test
    void aBinaryThatExitsAtOnceHasItsOutputInTheError() throws Exception {
        Path binary = TestSupport.script(dir, "mockapns", "echo 'starting up'\necho 'error: port 2197 is on fire' >&2\nexit 3");
        MockAPNsException error = assertThrows(MockAPNsException.class,
                () -> MockAPNs.builder().environment(bareEnvironment()).binary(binary).start());
        String message = error.getMessage();
        assertTrue(message.startsWith("`" + binary + " serve --port 0 --control-port 0 --http1-port 0 --ready-file "),
                message);
        assertTrue(message.contains(" --quiet` exited with code 3 before it was ready. Its output:\n"
                + "    starting up\n    error: port 2197 is on fire"), message);
    }

    @Test
    void aBinaryThatNeverGetsReadyIsStoppedAfterTheTimeout() throws Exception {
        Path pidFile = dir.resolve("pid");
        Path binary = TestSupport.script(dir, "mockapns", "echo $$ > " + pidFile + "\necho 'waiting forever'\nexec /bin/sleep 60");
        MockAPNsException error = assertThrows(MockAPNsException.class, () -> MockAPNs.builder()
                .environment(bareEnvironment()).binary(binary).startupTimeout(Duration.ofSeconds(1)).start());
        assertTrue(error.getMessage().contains("did not write its ready file within 1 s, so it was stopped. Its output:\n"
                + "    waiting forever\nGive it longer with MockAPNs.builder().startupTimeout(...) on a slow machine."),
                error.getMessage());
        long pid = Long.parseLong(Files.readString(pidFile).trim());
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the process " + pid + " was stopped");
    }

    @Test
    void aBinaryAndAnImageAtOnceIsAMistake() {
        IllegalStateException error = assertThrows(IllegalStateException.class,
                () -> MockAPNs.builder().binary("/bin/true").image("mockapns:latest").start());
        assertEquals("MockAPNs.builder(): give binary(...) or image(...), not both", error.getMessage());
    }

    /** In both modes: the real mock refuses an unknown flag, and the error carries what it printed. */
    @Test
    void aServeFlagTheMockRefusesShowsItsComplaint() {
        MockAPNsException error = assertThrows(MockAPNsException.class,
                () -> MockAPNs.builder().args("--no-such-flag").start());
        String message = error.getMessage();
        assertTrue(message.contains("--no-such-flag"), message);
        if (TestSupport.containerMode()) {
            assertTrue(message.startsWith("The mockapns container mockapns-java-"), message);
            assertTrue(message.contains("(" + System.getenv("MOCKAPNS_IMAGE") + ", "), "names the image: " + message);
            assertTrue(message.contains("has stopped: exit code "), message);
        } else {
            assertTrue(message.contains(" --quiet --no-such-flag` exited with code "), message);
        }
    }

    /** In both modes: a mock that dies under a test is reported as dead, with how it ended. */
    @Test
    void aMockThatDiesSaysSoOnTheNextRequest() throws Exception {
        MockAPNs mock = TestSupport.start();
        try {
            if (mock.process().isPresent()) {
                mock.process().get().destroyForcibly();
                mock.process().get().onExit().get();
            } else {
                String name = mock.containerName().orElseThrow();
                Exec.Result kill = Exec.run(List.of(mock.engine().orElseThrow().toString(), "kill", name),
                        System.getenv(), Duration.ofSeconds(60));
                assertEquals(0, kill.code, kill.stderr);
            }
            MockAPNsException error = assertThrows(MockAPNsException.class, mock::notifications);
            assertFalse(mock.isRunning());
            assertEquals(error.getMessage(), mock.stoppedReason());
            if (mock.process().isPresent()) {
                assertTrue(error.getMessage().startsWith("The mockapns server (pid " + mock.process().get().pid()
                        + ") is no longer running: it exited with code 137 (or was killed by signal 9)."),
                        error.getMessage());
            } else {
                assertTrue(error.getMessage().startsWith("The mockapns container " + mock.containerName().get()),
                        error.getMessage());
                assertTrue(error.getMessage().contains(") has stopped: exit code "), error.getMessage());
            }
        } finally {
            mock.close();
        }
        TestSupport.assertGone(mock);
    }
}
