package dev.mockapns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What the kit's tests share: starting a mock (timed), a real HTTP/2 sender (the JDK's HttpClient), clean-up checks. */
public final class TestSupport {
    /** A well-formed device token (64 hex digits). */
    public static final String PHONE = "00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0";
    public static final String TABLET = "ab".repeat(32);
    public static final String TOPIC = "com.example.app";

    private TestSupport() {}

    /** A mock started as the run's mode says (MOCKAPNS_BIN or MOCKAPNS_IMAGE), its start-up time recorded. */
    public static MockAPNs start() {
        return start(MockAPNs.builder());
    }

    /** {@code builder.start()}, its start-up time recorded for run-tests.sh's summary. */
    public static MockAPNs start(MockAPNs.Builder builder) {
        long began = System.nanoTime();
        MockAPNs mock = builder.start();
        recordStartup(System.nanoTime() - began);
        return mock;
    }

    /** Appends one start-up time (ms) to the file run-tests.sh summarizes (when it gave one). */
    public static synchronized void recordStartup(long nanos) {
        String file = System.getProperty("mockapns.test.timings");
        if (file == null) return;
        try {
            Files.writeString(Path.of(file), (nanos / 1_000_000) + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new IllegalStateException("cannot record a start-up time in " + file, e);
        }
    }

    /** The JDK's HTTP/2 client over TLS, trusting the mock's CA only. */
    public static HttpClient http2(MockAPNs mock) {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_2)
                .sslContext(mock.sslContext())
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    /** POSTs an alert push with this title to {@code token}, authorized with the mock's provider token. */
    public static HttpResponse<String> push(HttpClient client, MockAPNs mock, String token, String topic, String title)
            throws IOException, InterruptedException {
        String body = Json.write(Map.of("aps", Map.of("alert", Map.of("title", title, "body", "Order 42"))));
        HttpRequest request = HttpRequest.newBuilder(URI.create(mock.url() + "/3/device/" + token))
                .timeout(Duration.ofSeconds(20))
                .header("authorization", "bearer " + mock.token())
                .header("apns-topic", topic)
                .header("apns-push-type", "alert")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(HttpClient.Version.HTTP_2, response.version(), "the mock answers over HTTP/2");
        return response;
    }

    /** The APNs reason in a rejection's body ({"reason": "..."}). */
    public static String reason(HttpResponse<String> response) {
        return (String) ((Map<?, ?>) Json.parse(response.body())).get("reason");
    }

    /** Asserts that a closed mock left nothing running: its process has exited, its container is gone. */
    public static void assertGone(MockAPNs mock) {
        Optional<ProcessHandle> process = mock.process();
        process.ifPresent(handle -> {
            assertFalse(handle.isAlive(), "the mockapns process " + handle.pid() + " is still running");
            assertFalse(ProcessHandle.current().children().anyMatch(child -> child.pid() == handle.pid()),
                    "the mockapns process " + handle.pid() + " is still a child of the test JVM");
        });
        mock.containerName().ifPresent(name -> assertFalse(containerExists(mock.engine().orElseThrow(), name),
                "the container " + name + " still exists"));
        assertTrue(process.isPresent() || mock.containerName().isPresent(), "a mock runs as a process or a container");
    }

    /** Whether the engine still has a container called {@code name}, running or not. */
    public static boolean containerExists(Path engine, String name) {
        Exec.Result list = Exec.run(List.of(engine.toString(), "ps", "-a", "--filter", "name=^" + name + "$",
                "--format", "{{.Names}}"), System.getenv(), Duration.ofSeconds(60));
        assertEquals(0, list.code, () -> "`" + list.commandLine() + "` failed: " + list.stderr);
        return list.stdout.lines().anyMatch(name::equals);
    }

    /** The names of the containers (running or not) the Java kit made, by its label. */
    public static List<String> kitContainers(Path engine) {
        Exec.Result list = Exec.run(List.of(engine.toString(), "ps", "-a", "--filter", "label=io.mockapns.kit=java",
                "--format", "{{.Names}}"), System.getenv(), Duration.ofSeconds(60));
        assertEquals(0, list.code, () -> "`" + list.commandLine() + "` failed: " + list.stderr);
        return list.stdout.lines().filter(line -> !line.isBlank()).collect(java.util.stream.Collectors.toList());
    }

    /** An executable shell script with this body, in {@code dir}. */
    public static Path script(Path dir, String name, String body) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, "#!/bin/sh\n" + body + "\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    /** The repository's certs/ folder (run-tests.sh names the repository in -Dmockapns.test.repo). */
    public static Path repositoryCerts() {
        String repo = System.getProperty("mockapns.test.repo");
        if (repo == null) throw new IllegalStateException("run the tests with -Dmockapns.test.repo=<the repository>");
        return Path.of(repo, "certs");
    }

    /** Whether this run tests the container image (run-tests.sh sets MOCKAPNS_IMAGE for it). */
    public static boolean containerMode() {
        String image = System.getenv("MOCKAPNS_IMAGE");
        return image != null && !image.isBlank();
    }
}
