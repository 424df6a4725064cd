package dev.mockapns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What goes wrong with a container engine, against the real engine: an image it does not have, an engine that is
 * not running, a container that dies at start. Each error names the image and the engine, and no container is left.
 * Tagged "container": run-tests.sh runs these in container mode (MOCKAPNS_IMAGE set), where an engine is needed.
 */
@Tag("container")
class ContainerErrorsTest {
    private Path engine;
    private List<String> containersBefore;

    @BeforeEach
    void findTheEngine() {
        engine = ContainerBackend.findEngine(null, System.getenv());
        assertTrue(engine != null, "container mode needs docker or podman on PATH");
        containersBefore = TestSupport.kitContainers(engine);
    }

    private void assertNoContainerLeft() {
        assertEquals(containersBefore, TestSupport.kitContainers(engine), "no container of the kit's is left");
    }

    private String engineName() {
        return engine.getFileName().toString();
    }

    @Test
    void anImageTheEngineDoesNotHave() {
        MockAPNsException error = assertThrows(MockAPNsException.class,
                () -> MockAPNs.builder().image("localhost/mockapns-no-such-image:0").start());
        assertTrue(error.getMessage().startsWith(engineName() + " has no image localhost/mockapns-no-such-image:0 (`"
                + engineName() + " image inspect localhost/mockapns-no-such-image:0`: "), error.getMessage());
        assertTrue(error.getMessage().endsWith("Build it (`make image` in the MockAPNs repository) or pull it, or set "
                + "MOCKAPNS_IMAGE to an image `" + engineName() + " images` lists."), error.getMessage());
        assertNoContainerLeft();
    }

    @Test
    void anEngineThatIsNotRunning(@TempDir Path dir) {
        // Both engines are pointed at a socket nobody listens on: the engine's service is down, as far as it can tell.
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("DOCKER_HOST", "unix://" + dir.resolve("no-docker.sock"));
        env.put("CONTAINER_HOST", "unix://" + dir.resolve("no-podman.sock"));
        env.put("MOCKAPNS_CONTAINER_ENGINE", engine.toString());
        String image = System.getenv().getOrDefault("MOCKAPNS_IMAGE", "mockapns:latest");
        MockAPNsException error = assertThrows(MockAPNsException.class,
                () -> MockAPNs.builder().environment(env).image(image).start());
        assertTrue(error.getMessage().startsWith(engineName() + " (" + engine + ") is not running or not usable, so it "
                + "cannot run the image " + image + ": `" + engineName() + " info` says: "), error.getMessage());
        assertTrue(error.getMessage().contains("no-" + engineName() + ".sock"), "quotes the engine: " + error.getMessage());
        assertTrue(error.getMessage().endsWith("Start it (for docker: its daemon, e.g. `systemctl start docker`), pick "
                + "the other engine with MOCKAPNS_CONTAINER_ENGINE=docker|podman, or run the mockapns binary instead "
                + "(MOCKAPNS_BIN)."), error.getMessage());
    }

    @Test
    void aContainerThatDiesAtStartIsRemovedAndQuoted() {
        MockAPNsException error = assertThrows(MockAPNsException.class,
                () -> MockAPNs.builder().args("--port", "not-a-port").start());
        String message = error.getMessage();
        assertTrue(message.matches("(?s)The mockapns container mockapns-java-[0-9a-f]{12} \\("
                + java.util.regex.Pattern.quote(System.getenv("MOCKAPNS_IMAGE") + ", " + engineName())
                + "\\) has stopped: exit code [1-9][0-9]*\\. Its last output:\n.*not-a-port.*"), message);
        assertNoContainerLeft();
    }

    @Test
    void closeRemovesTheContainer() {
        MockAPNs mock = TestSupport.start();
        String name = mock.containerName().orElseThrow();
        assertTrue(TestSupport.containerExists(engine, name));
        assertTrue(name.startsWith("mockapns-java-"), name);
        mock.close();
        assertTrue(!TestSupport.containerExists(engine, name), "removed on close");
        assertNoContainerLeft();
    }
}
