package dev.mockapns;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLSocket;

/**
 * The mockapns image under docker or podman, run as kits/spec/launch.json's container cases say: its ports 2197
 * (APNs over TLS), 2198 (the control plane) and 2200 (HTTP/1.1) published on free loopback ports, a random control
 * token, the CA read from {@code GET /api/v1/ca.pem}; with Apple's host names their ports 443, 2195 and 2196 too;
 * with FCM, {@code MOCKAPNS_FCM=1} and its port 2199. The container has a name chosen before it is created, so it
 * can be removed whatever happened ({@code rm -f -v}).
 */
final class ContainerBackend implements Backend {
    /** Where the image keeps the test keys (the `make dist` tarball's certs/ beside the binary). */
    static final String CERTS_IN_IMAGE = "/opt/mockapns/certs";
    /** The ports inside the container (launch.json's): APNs, the control plane, FCM (which serves Google's names
     * too) and HTTP/1.1; with Apple's names, Apple's 443 and the channel-management ports. */
    static final int APNS_PORT = 2197;
    static final int CONTROL_PORT = 2198;
    static final int FCM_PORT = 2199;
    static final int HTTP1_PORT = 2200;
    static final List<Integer> APPLE_PORTS = List.of(443, 2195, 2196);
    /** Marks the kit's containers, and OWNER_LABEL the JVM that started each: {@code podman rm -f $(podman ps -aq
     * --filter label=io.mockapns.kit)} removes any a killed JVM left. */
    static final String KIT_LABEL = "io.mockapns.kit";
    static final String OWNER_LABEL = "io.mockapns.pid";
    /** How many lines of the container's output an error quotes. */
    static final int TAIL_LINES = 20;
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);
    private static final SecureRandom RANDOM = new SecureRandom();
    /** The engine picked when both docker and podman are installed, per PATH (asking docker costs a command). */
    private static final Map<String, Path> PICKED = new ConcurrentHashMap<>();

    private final Path engine;
    private final String image;
    private final List<String> args;
    private final Map<String, String> env;
    private final Map<String, String> extraEnv;
    private final Path explicitCerts;
    private final Path workdir;
    private final Duration startupTimeout;
    private final String controlToken;
    private final boolean appleHosts;
    private final boolean fcm;
    private final String name;
    private volatile boolean created;
    private final HttpClient probe = ControlClient.newHttpClient();

    ContainerBackend(Path engine, String image, List<String> args, Map<String, String> env,
                     Map<String, String> extraEnv, Path explicitCerts, Path workdir, Duration startupTimeout,
                     boolean appleHosts, boolean fcm) {
        this.engine = engine;
        this.image = image;
        this.args = args;
        this.env = env;
        this.extraEnv = extraEnv;
        this.explicitCerts = explicitCerts;
        this.workdir = workdir;
        this.startupTimeout = startupTimeout;
        this.controlToken = randomHex(16);
        this.appleHosts = appleHosts;
        this.fcm = fcm;
        this.name = "mockapns-java-" + randomHex(6);
    }

    /**
     * The container engine: {@code explicit} (the builder's), else $MOCKAPNS_CONTAINER_ENGINE, else docker or podman,
     * whichever is on PATH (both: docker when its daemon answers, else podman); null when there is none.
     */
    static Path findEngine(String explicit, Map<String, String> env) {
        String wanted = explicit != null ? explicit : env.get("MOCKAPNS_CONTAINER_ENGINE");
        String source = explicit != null ? "The engine given to MockAPNs.builder().engine()" : "MOCKAPNS_CONTAINER_ENGINE";
        if (wanted != null && !wanted.isBlank()) {
            Optional<Path> found = wanted.contains("/")
                    ? Optional.of(Path.of(wanted)).filter(p -> Files.isRegularFile(p) && Files.isExecutable(p))
                    : Exec.onPath(wanted, env.get("PATH"));
            return found.orElseThrow(() -> new MockAPNsException(source + " is '" + wanted + "', which is not an "
                    + "executable" + (wanted.contains("/") ? "" : " on PATH") + "; install it, or set it to docker or "
                    + "podman."));
        }
        Optional<Path> docker = Exec.onPath("docker", env.get("PATH"));
        Optional<Path> podman = Exec.onPath("podman", env.get("PATH"));
        if (docker.isPresent() && podman.isPresent()) {
            return PICKED.computeIfAbsent(String.valueOf(env.get("PATH")) + "\0" + env.get("DOCKER_HOST"), key ->
                    Exec.run(List.of(docker.get().toString(), "info", "--format", "{{.ServerVersion}}"), env,
                            Duration.ofSeconds(15)).ok() ? docker.get() : podman.get());
        }
        return docker.or(() -> podman).orElse(null);
    }

    private String engineName() {
        return engine.getFileName().toString();
    }

    private Exec.Result engine(Map<String, String> moreEnv, Duration timeout, String... command) {
        List<String> line = new ArrayList<>();
        line.add(engine.toString());
        line.addAll(List.of(command));
        Map<String, String> commandEnv = new LinkedHashMap<>(env);
        commandEnv.putAll(moreEnv);
        Exec.Result result = Exec.run(line, commandEnv, timeout);
        return new Exec.Result(result.command, result.code, result.stdout, withoutNoise(result.stderr));
    }

    private Exec.Result engine(String... command) {
        return engine(Map.of(), COMMAND_TIMEOUT, command);
    }

    /** Podman's lines about systemd and syslog, printed on every command where there are none: not the problem. */
    static String withoutNoise(String stderr) {
        StringBuilder kept = new StringBuilder();
        for (String line : stderr.split("\\R")) {
            if (line.contains("unable to get systemd connection") || line.contains("failed to connect to syslog")
                    || line.contains("Removing timer for container")) {
                continue;
            }
            kept.append(line).append('\n');
        }
        return kept.toString();
    }

    /**
     * {@code <engine> run ...} as launch.json's container cases have it: --pull=never (a missing image fails at once),
     * no --rm (a container that dies keeps its output for the error; stop() removes it), the labels, the control
     * token and {@code env}'s values by name from the engine's environment (on no command line), HTTP/1.1 always,
     * Apple's names and the FCM port when asked, every port on a free loopback port, then {@code serve} and the
     * test's own options.
     */
    static List<String> runArguments(String name, long pid, String image, boolean appleHosts, boolean fcm,
                                     Collection<String> env, List<String> args) {
        List<String> run = new ArrayList<>(List.of("run", "-d", "--pull=never", "--name", name,
                "--label", KIT_LABEL + "=java", "--label", OWNER_LABEL + "=" + pid, "-e", "MOCKAPNS_CONTROL_TOKEN",
                "-e", "MOCKAPNS_HTTP1_HOST=0.0.0.0", "-e", "MOCKAPNS_HTTP1_PORT=" + HTTP1_PORT));
        List<Integer> ports = new ArrayList<>(List.of(APNS_PORT, CONTROL_PORT, HTTP1_PORT));
        if (appleHosts) {
            // Apple's ports inside the container, whatever the image's defaults, so the published ones are known.
            run.addAll(List.of("-e", "MOCKAPNS_APPLE_HOSTS=1", "-e", "MOCKAPNS_APPLE_HTTPS_PORT=443",
                    "-e", "MOCKAPNS_MANAGE_SANDBOX_PORT=2195", "-e", "MOCKAPNS_MANAGE_PRODUCTION_PORT=2196"));
            ports.addAll(APPLE_PORTS);
        }
        if (fcm) {
            // Only the mock's own FCM port is published: it serves Google's three names too (its certificate carries
            // them). Google's 443 inside the container goes to a free port, where it cannot collide with Apple's.
            run.addAll(List.of("-e", "MOCKAPNS_FCM=1", "-e", "MOCKAPNS_FCM_PORT=" + FCM_PORT,
                    "-e", "MOCKAPNS_FCM_HTTPS_PORT=0"));
            ports.add(FCM_PORT);
        }
        for (String variable : env) {
            if (!variable.equals("MOCKAPNS_CONTROL_TOKEN")) run.addAll(List.of("-e", variable));
        }
        for (int port : ports) run.addAll(List.of("-p", "127.0.0.1::" + port));
        run.add(image);
        run.add("serve");
        run.addAll(args);
        return run;
    }

    @Override
    public Ready start() {
        Exec.Result inspect = engine("image", "inspect", "--format", "{{.Id}}", image);
        if (!inspect.ok()) throw new MockAPNsException(whyNoImage(inspect));

        Map<String, String> runEnv = new LinkedHashMap<>(extraEnv);
        runEnv.put("MOCKAPNS_CONTROL_TOKEN", controlToken); // passed by name, so it stays out of `ps`
        List<String> run = runArguments(name, ProcessHandle.current().pid(), image, appleHosts, fcm,
                extraEnv.keySet(), args);
        created = true; // from here on, stop() removes the container by its name
        Exec.Result started = engine(runEnv, startupTimeout, run.toArray(new String[0]));
        if (!started.ok()) {
            String logs = logs();
            stop();
            throw new MockAPNsException("`" + engineName() + " " + String.join(" ", run) + "` failed (exit "
                    + started.code + "): " + started.lastLine() + "\nThe " + image + " container's output:\n"
                    + Exec.tail(logs, TAIL_LINES));
        }
        try {
            int apnsPort = publishedPort(APNS_PORT);
            int controlPort = publishedPort(CONTROL_PORT);
            int http1Port = publishedPort(HTTP1_PORT);
            String controlUrl = "http://127.0.0.1:" + controlPort;
            String caPem = waitUntilServing(controlUrl, apnsPort);
            Path caFile = workdir.resolve("ca.pem");
            Files.writeString(caFile, caPem, StandardCharsets.US_ASCII);
            // The HTTP/1.1 and FCM listeners start after the control plane, and a request to the HTTP/1.1 port would
            // be recorded: the container's ready file, written once every listener is up, says they listen.
            Map<String, Object> ready = waitForReadyFile(fcm ? List.of("http1_url", "fcm_url", "fcm_service_account",
                    "fcm_ca_file") : List.of("http1_url"));
            Map<Integer, Integer> applePorts = new LinkedHashMap<>();
            if (appleHosts) {
                applePorts.put(443, publishedPort(443));
                applePorts.put(2197, apnsPort);
                applePorts.put(2195, publishedPort(2195));
                applePorts.put(2196, publishedPort(2196));
                waitForHandshake(applePorts.get(443), caPem, "Apple's 443");
            }
            return new Ready("https://127.0.0.1:" + apnsPort, controlUrl, "http://127.0.0.1:" + http1Port, applePorts,
                    caFile, certs(), fcm ? fcmReady(ready) : null);
        } catch (IOException e) {
            stop();
            throw new MockAPNsException("Cannot write the mock's CA to " + workdir + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            stop();
            throw e;
        }
    }

    /** Why {@code image inspect} failed: the engine is not usable, or it does not have the image. */
    private String whyNoImage(Exec.Result inspect) {
        Exec.Result info = engine(Map.of(), Duration.ofSeconds(30), "info");
        if (!info.ok()) {
            return engineName() + " (" + engine + ") is not running or not usable, so it cannot run the image "
                    + image + ": `" + engineName() + " info` says: " + info.lastLine() + "\nStart it (for docker: "
                    + "its daemon, e.g. `systemctl start docker`), pick the other engine with "
                    + "MOCKAPNS_CONTAINER_ENGINE=docker|podman, or run the mockapns binary instead (MOCKAPNS_BIN).";
        }
        return engineName() + " has no image " + image + " (`" + engineName() + " image inspect " + image
                + "`: " + inspect.lastLine() + "). Build it (`make image` in the MockAPNs repository) or pull it, "
                + "or set MOCKAPNS_IMAGE to an image `" + engineName() + " images` lists.";
    }

    /** The loopback port the engine published for the container's {@code port}. */
    private int publishedPort(int port) {
        Exec.Result answer = engine("port", name, port + "/tcp");
        if (answer.ok()) {
            for (String line : answer.stdout.split("\\R")) {
                int colon = line.lastIndexOf(':');
                if (colon > 0) {
                    try {
                        return Integer.parseInt(line.substring(colon + 1).trim());
                    } catch (NumberFormatException ignored) {
                        // not an address line
                    }
                }
            }
        }
        String why = death();
        throw new MockAPNsException(why != null ? why : "`" + answer.commandLine() + "` named no published port for "
                + port + " (" + answer.lastLine() + "). Does the image " + image + " expose ports 2197 and 2198?");
    }

    /**
     * Waits until the control plane answers {@code /healthz}, serves its CA, and a TLS handshake trusting that CA
     * succeeds on the APNs port (the engine's port forwarder accepts connections before the server listens, so a
     * bare connect proves nothing). Returns the CA.
     */
    private String waitUntilServing(String controlUrl, int apnsPort) {
        long deadline = System.nanoTime() + startupTimeout.toNanos();
        long nextStateCheck = System.nanoTime();
        String lastProblem = "no answer yet";
        while (true) {
            String caPem = null;
            try {
                if (get(controlUrl + "/healthz").statusCode() == 200) {
                    HttpResponse<String> ca = get(controlUrl + "/api/v1/ca.pem");
                    if (ca.statusCode() == 200 && ca.body().contains("BEGIN CERTIFICATE")) {
                        caPem = ca.body();
                        handshake(apnsPort, caPem);
                        return caPem;
                    }
                    lastProblem = "GET /api/v1/ca.pem answered " + ca.statusCode();
                } else {
                    lastProblem = "GET /healthz did not answer 200";
                }
            } catch (IOException | RuntimeException e) {
                lastProblem = (caPem == null ? "the control plane: " : "a TLS handshake on port " + apnsPort + ": ") + e;
            }
            if (System.nanoTime() >= nextStateCheck) {
                String why = death();
                if (why != null) throw new MockAPNsException(why);
                nextStateCheck = System.nanoTime() + Duration.ofSeconds(1).toNanos();
            }
            if (System.nanoTime() > deadline) {
                throw new MockAPNsException("The " + image + " container (" + name + ", " + engineName()
                        + ") did not serve on 127.0.0.1:" + apnsPort + " (APNs) and " + controlUrl + " within "
                        + startupTimeout.toSeconds() + " s (last problem: " + lastProblem + "), so it was removed. "
                        + "Its output:\n" + Exec.tail(logs(), TAIL_LINES));
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new MockAPNsException("Interrupted while waiting for the " + image + " container", e);
            }
        }
    }

    private HttpResponse<String> get(String url) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2))
                .header("authorization", "Bearer " + controlToken).build();
        try {
            return probe.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MockAPNsException("Interrupted while waiting for the " + image + " container", e);
        }
    }

    private static void handshake(int port, String caPem) throws IOException {
        try (SSLSocket socket = (SSLSocket) MockAPNs.trusting(caPem).getSocketFactory().createSocket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            socket.setSoTimeout(2000);
            socket.startHandshake();
        }
    }

    /** The container's ready file once it names each of {@code fields} (it is written once every listener is up). */
    private Map<String, Object> waitForReadyFile(List<String> fields) {
        long deadline = System.nanoTime() + startupTimeout.toNanos();
        String lastProblem = "no ready file yet";
        while (true) {
            Exec.Result cat = engine("exec", name, "sh", "-c", "cat \"$MOCKAPNS_READY_FILE\"");
            if (cat.ok()) {
                Map<String, Object> ready;
                try {
                    ready = Json.parseObject(cat.stdout, "the container's ready file");
                } catch (IllegalArgumentException e) {
                    ready = Map.of();
                }
                List<String> missing = new ArrayList<>();
                for (String field : fields) {
                    if (!(ready.get(field) instanceof String)) missing.add(field);
                }
                if (missing.isEmpty()) return ready;
                if (ready.get("apns_url") instanceof String) {
                    throw new MockAPNsException("The " + image + " container (" + name + ") serves no " + missing
                            + " though it was asked to (" + (fcm ? "MOCKAPNS_FCM=1, " : "") + "MOCKAPNS_HTTP1_PORT): "
                            + "its mockapns (" + ready.getOrDefault("version", "unknown version") + ") is older than "
                            + "the kit. Rebuild the image (`make image`).");
                }
            } else {
                lastProblem = "`" + cat.commandLine() + "`: " + cat.lastLine();
            }
            pauseOrGiveUp(deadline, lastProblem, "write its ready file");
        }
    }

    /** Waits until a TLS handshake trusting {@code caPem} succeeds on {@code port} ({@code what}, for messages). */
    private void waitForHandshake(int port, String caPem, String what) {
        long deadline = System.nanoTime() + startupTimeout.toNanos();
        while (true) {
            try {
                handshake(port, caPem);
                return;
            } catch (IOException e) {
                pauseOrGiveUp(deadline, "a TLS handshake on port " + port + " (" + what + "): " + e,
                        "serve TLS on 127.0.0.1:" + port + " (" + what + ")");
            }
        }
    }

    /** Throws when the container died or the deadline passed (it did not {@code doWhat}); else sleeps 100 ms. */
    private void pauseOrGiveUp(long deadline, String lastProblem, String doWhat) {
        String why = death();
        if (why != null) throw new MockAPNsException(why);
        if (System.nanoTime() > deadline) {
            throw new MockAPNsException("The " + image + " container (" + name + ", " + engineName() + ") did not "
                    + doWhat + " within " + startupTimeout.toSeconds() + " s (last problem: " + lastProblem
                    + "), so it was removed. Its output:\n" + Exec.tail(logs(), TAIL_LINES));
        }
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MockAPNsException("Interrupted while waiting for the " + image + " container", e);
        }
    }

    /**
     * The FCM front door as published: the service-account file and the CA the ready file names, copied out of the
     * container, once a TLS handshake with that CA succeeds on the published FCM port (which serves Google's names
     * too, so it is also the port behind them).
     */
    private Fcm fcmReady(Map<String, Object> ready) throws IOException {
        int fcmPort = publishedPort(FCM_PORT);
        String account = inContainer((String) ready.get("fcm_service_account"));
        String caPem = inContainer((String) ready.get("fcm_ca_file"));
        waitForHandshake(fcmPort, caPem, "FCM");
        Path accountFile = workdir.resolve("service-account.json");
        Files.writeString(accountFile, account, StandardCharsets.UTF_8);
        Path caFile = workdir.resolve("fcm-ca.pem");
        Files.writeString(caFile, caPem, StandardCharsets.US_ASCII);
        return new Fcm("https://127.0.0.1:" + fcmPort, fcmPort, accountFile, caFile);
    }

    /** The text of a file in the container. */
    private String inContainer(String path) {
        Exec.Result cat = engine("exec", name, "cat", path);
        if (!cat.ok()) {
            throw new MockAPNsException("Cannot read " + path + " in the " + image + " container: `"
                    + cat.commandLine() + "` failed (" + cat.lastLine() + ").");
        }
        return cat.stdout;
    }

    /** The test keys: the builder's folder or $MOCKAPNS_CERTS_DIR, else the image's own, copied out of it. */
    private Path certs() {
        Path certs = ProcessBackend.firstWithKeys(ProcessBackend.certsCandidates(explicitCerts, null, env));
        if (certs != null) return certs;
        Path copy = workdir.resolve("certs");
        Exec.Result cp = engine("cp", name + ":" + CERTS_IN_IMAGE, copy.toString());
        if (!cp.ok() || !Files.isRegularFile(copy.resolve("keys.json"))) {
            throw new MockAPNsException("Cannot find the test signing keys the " + image + " container trusts: "
                    + "MOCKAPNS_CERTS_DIR is not set and `" + cp.commandLine() + "` gave no keys.json ("
                    + cp.lastLine() + "). Set MOCKAPNS_CERTS_DIR to the MockAPNs repository's certs/ folder.");
        }
        return copy;
    }

    /** The container's output, stdout and stderr. */
    private String logs() {
        Exec.Result logs = engine("logs", name);
        return logs.stdout + logs.stderr;
    }

    @Override
    public String controlToken() {
        return controlToken;
    }

    @Override
    public String mintToken(String teamId, String keyId, Path keyFile) {
        return ProviderToken.minted(engine("exec", name, "mockapns", "token", "--json"));
    }

    @Override
    public String readyFile() {
        Exec.Result cat = engine("exec", name, "sh", "-c", "cat \"$MOCKAPNS_READY_FILE\"");
        if (!cat.ok()) throw new MockAPNsException("`" + cat.commandLine() + "` failed: " + cat.lastLine());
        return cat.stdout;
    }

    @Override
    public String death() {
        if (!created) return null;
        Exec.Result state = engine("inspect", "--format", "{{.State.Running}} {{.State.ExitCode}}", name);
        if (!state.ok()) {
            return "The mockapns container " + name + " (" + image + ", " + engineName() + ") is gone: `"
                    + state.commandLine() + "` says " + state.lastLine() + ". Was it removed outside the kit?";
        }
        String[] fields = state.stdout.trim().split("\\s+");
        if (fields[0].equals("true")) return null;
        return "The mockapns container " + name + " (" + image + ", " + engineName() + ") has stopped: exit code "
                + (fields.length > 1 ? fields[1] : "unknown") + ". Its last output:\n" + Exec.tail(logs(), TAIL_LINES);
    }

    @Override
    public void stop() {
        if (!created) return;
        Exec.Result removed = engine("rm", "-f", "-v", name);
        if (!removed.ok() && engine("inspect", "--format", "{{.Id}}", name).ok()) {
            throw new MockAPNsException("Could not remove the mockapns container " + name + ": `"
                    + removed.commandLine() + "` failed (" + removed.lastLine() + "). Remove it with `"
                    + removed.commandLine() + "`.");
        }
        created = false;
    }

    @Override
    public Optional<ProcessHandle> process() {
        return Optional.empty();
    }

    @Override
    public Optional<String> containerName() {
        return Optional.of(name);
    }

    /** The engine running the container. */
    Path engine() {
        return engine;
    }

    private static String randomHex(int bytes) {
        byte[] random = new byte[bytes];
        RANDOM.nextBytes(random);
        StringBuilder hex = new StringBuilder();
        for (byte b : random) hex.append(String.format("%02x", b));
        return hex.toString();
    }
}
