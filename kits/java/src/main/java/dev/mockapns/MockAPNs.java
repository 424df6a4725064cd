package dev.mockapns;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A mock APNs server for one test (or one test class): {@code mockapns serve} on free loopback ports, or the
 * mockapns container image under docker or podman, and its control API.
 *
 * <pre>{@code
 * try (MockAPNs mock = MockAPNs.start()) {
 *     HttpClient client = HttpClient.newBuilder().sslContext(mock.sslContext()).build();
 *     // ... point the sender at mock.url(), authorize with "bearer " + mock.token(), send ...
 *     mock.expect(new Filter().topic("com.example.app").status(200).count(1));
 * }
 * }</pre>
 *
 * <p>What runs: the builder's {@link Builder#image(String)} or {@link Builder#binary(String)}, else the image in
 * {@code MOCKAPNS_IMAGE}, else the binary in {@code MOCKAPNS_BIN}, else {@code mockapns} on PATH. A mock is closed by
 * {@link #close()}, and at the latest when the JVM exits (a container is always removed).
 *
 * <p>{@link Builder#appleHosts()} serves Apple's host names too, and {@link #intercept()} routes the JDK's HttpClient
 * to them inside this JVM: a sender with {@code https://api.push.apple.com} built in reaches the mock unchanged.
 *
 * <p>{@link Builder#fcm()} serves Google's FCM names too ({@code mockapns serve --fcm}, docs/fcm.md): a Firebase
 * sender gets {@link #fcmUrl()}, {@link #fcmServiceAccount()} and {@link #fcmSslContext()}, and each iOS message it
 * sends becomes the APNs push FCM makes, recorded as any other ({@link #apnsPushesOf(FcmMessage)}). The test checks
 * the FCM records with {@link #expectFcm(FcmFilter)}, which the mock checks and words as it does {@code expect}.
 */
public final class MockAPNs implements AutoCloseable {
    /** The project of {@link #fcmServiceAccount()}, the one the mock makes at start. */
    public static final String FCM_PROJECT = "mockapns-test";

    private static final Set<MockAPNs> OPEN = ConcurrentHashMap.newKeySet();

    static {
        // A test run that ends without close() (a crash, System.exit, a forgotten try) must not leave a server or
        // a container running.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (MockAPNs mock : OPEN) {
                try {
                    mock.close();
                } catch (RuntimeException e) {
                    System.err.println("MockAPNs: " + e.getMessage());
                }
            }
        }, "MockAPNs shutdown"));
    }

    private final Backend backend;
    private final Path workdir;
    private final String description;
    private final String url;
    private final String controlUrl;
    private final String http1Url;
    private final Map<Integer, Integer> applePorts;
    private final Path caFile;
    private final String caPem;
    private final SSLContext sslContext;
    private final Path keyFile;
    private final String keyId;
    private final String teamId;
    private final ProviderToken tokens;
    private final ControlClient control;
    private final Backend.Fcm fcm;
    private final SSLContext fcmSslContext;
    private Interception interception;
    private volatile boolean closed;

    private MockAPNs(Backend backend, Path workdir, String description, Clock clock, Duration controlTimeout) {
        this.backend = backend;
        this.workdir = workdir;
        this.description = description;
        Backend.Ready ready = backend.start();
        this.url = ready.apnsUrl;
        this.controlUrl = ready.controlUrl;
        this.http1Url = ready.http1Url;
        this.applePorts = ready.applePorts;
        this.caFile = ready.caFile;
        try {
            this.caPem = Files.readString(ready.caFile, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new MockAPNsException("Cannot read the mock's CA " + ready.caFile + ": " + e.getMessage() + ".", e);
        }
        this.sslContext = trusting(caPem);
        Map<String, Object> key = signingKey(ready.certsDir);
        this.keyId = (String) key.get("key_id");
        this.teamId = (String) key.get("team_id");
        this.keyFile = ready.certsDir.resolve((String) key.get("file"));
        if (!Files.isRegularFile(keyFile)) {
            throw new MockAPNsException(ready.certsDir.resolve("keys.json") + " names " + keyFile.getFileName()
                    + ", which is not in " + ready.certsDir + ".");
        }
        this.tokens = new ProviderToken(() -> backend.mintToken(teamId, keyId, keyFile), clock);
        this.control = new ControlClient(controlUrl, backend.controlToken(), backend::death, controlTimeout);
        this.fcm = ready.fcm;
        if (fcm == null) {
            this.fcmSslContext = null;
        } else {
            String fcmCa;
            try {
                fcmCa = Files.readString(fcm.caFile, StandardCharsets.US_ASCII);
            } catch (IOException e) {
                throw new MockAPNsException("Cannot read the mock's FCM CA " + fcm.caFile + ": " + e.getMessage() + ".", e);
            }
            this.fcmSslContext = fcmCa.equals(caPem) ? sslContext : trusting(fcmCa);
        }
    }

    /** Starts a mock as {@link #builder()} configures it by default (see the class comment for what runs). */
    public static MockAPNs start() {
        return builder().start();
    }

    /** A builder, to choose the binary, its arguments, an image or an engine before {@link Builder#start()}. */
    public static Builder builder() {
        return new Builder();
    }

    /** How to start a mock. Every setting is optional. */
    public static final class Builder {
        private String binary;
        private final List<String> args = new ArrayList<>();
        private String image;
        private String engine;
        private Path certsDir;
        private Duration startupTimeout;
        private Duration controlTimeout = Duration.ofSeconds(10);
        private final Map<String, String> extraEnv = new LinkedHashMap<>();
        private Map<String, String> environment = System.getenv();
        private Clock clock = Clock.systemUTC();
        private boolean appleHosts;
        private boolean fcm;

        private Builder() {}

        /** Runs this mockapns binary (instead of $MOCKAPNS_BIN or the one on PATH). */
        public Builder binary(String path) {
            this.binary = path;
            return this;
        }

        /** Runs this mockapns binary (instead of $MOCKAPNS_BIN or the one on PATH). */
        public Builder binary(Path path) {
            return binary(path.toString());
        }

        /** More {@code mockapns serve} options, e.g. {@code "--environment", "production"} (added to earlier ones). */
        public Builder args(String... args) {
            return args(List.of(args));
        }

        /** More {@code mockapns serve} options (added to earlier ones). */
        public Builder args(Collection<String> args) {
            this.args.addAll(args);
            return this;
        }

        /** Runs this container image (e.g. {@code mockapns:latest}) with docker or podman instead of a binary. */
        public Builder image(String image) {
            this.image = image;
            return this;
        }

        /**
         * The container engine: {@code docker}, {@code podman} or a path to one (default: $MOCKAPNS_CONTAINER_ENGINE,
         * else whichever of the two is on PATH).
         */
        public Builder engine(String engine) {
            this.engine = engine;
            return this;
        }

        /** The folder of the test keys (keys.json, AuthKey_*.p8); default $MOCKAPNS_CERTS_DIR, else where the
         * binary finds them (certs/ beside or above it), else the image's own. */
        public Builder certsDir(Path certsDir) {
            this.certsDir = certsDir;
            return this;
        }

        /** How long to wait for the mock to serve (default 30 s for a binary, 90 s for a container). */
        public Builder startupTimeout(Duration timeout) {
            this.startupTimeout = timeout;
            return this;
        }

        /** How long one control API request may take (default 10 s). */
        public Builder controlTimeout(Duration timeout) {
            this.controlTimeout = timeout;
            return this;
        }

        /**
         * Serves Apple's own host names too ({@code serve --apple-hosts} on free ports, under a CA made for this mock;
         * in a container, {@code MOCKAPNS_APPLE_HOSTS=1} with Apple's ports published), so {@link #intercept()} can
         * route a sender with Apple's URLs built in to it. See {@link #applePorts()}.
         */
        public Builder appleHosts() {
            this.appleHosts = true;
            return this;
        }

        /**
         * Serves Google's FCM names too: {@code serve --fcm --fcm-port 0 --fcm-https-port 0} with a CA and a data
         * folder of the mock's own (its service account, made at start, dies with it); in a container,
         * {@code MOCKAPNS_FCM=1} with the FCM port 2199 published (it serves Google's names too). See
         * {@link #fcmUrl()}.
         */
        public Builder fcm() {
            this.fcm = true;
            return this;
        }

        /** An environment variable for the server, e.g. {@code env("MOCKAPNS_H2C", "1")}. */
        public Builder env(String name, String value) {
            this.extraEnv.put(name, value);
            return this;
        }

        /** The variables the kit reads (PATH, MOCKAPNS_*) and passes on, instead of the JVM's; for the kit's tests. */
        Builder environment(Map<String, String> environment) {
            this.environment = Map.copyOf(environment);
            return this;
        }

        /** The clock provider tokens are issued and reused by; for the kit's tests. */
        Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        /** Starts the mock and waits until it serves; a MockAPNsException says why it could not, and what to do. */
        public MockAPNs start() {
            if (binary != null && image != null) {
                throw new IllegalStateException("MockAPNs.builder(): give binary(...) or image(...), not both");
            }
            String imageToRun = image;
            if (imageToRun == null && binary == null) {
                String fromEnv = environment.get("MOCKAPNS_IMAGE");
                if (fromEnv != null && !fromEnv.isBlank()) imageToRun = fromEnv.trim();
            }
            Path binaryToRun = null;
            Path engineToUse = null;
            if (imageToRun != null) {
                engineToUse = ContainerBackend.findEngine(engine, environment);
                if (engineToUse == null) {
                    throw new MockAPNsException("MockAPNs needs docker or podman to run the image " + imageToRun
                            + (image == null ? " (MOCKAPNS_IMAGE)" : "") + ", and neither is on PATH. Install one, "
                            + "or run the mockapns binary instead: " + (image == null ? "unset MOCKAPNS_IMAGE and " : "")
                            + "set MOCKAPNS_BIN to it or put it on PATH.");
                }
            } else {
                binaryToRun = ProcessBackend.find(binary, environment);
                if (binaryToRun == null) throw new MockAPNsException(nothingToRun(environment));
            }

            Path workdir;
            try {
                workdir = Files.createTempDirectory("mockapns-");
            } catch (IOException e) {
                throw new MockAPNsException("Cannot make a temporary folder for the mock: " + e.getMessage(), e);
            }
            Backend backend;
            String description;
            if (imageToRun != null) {
                ContainerBackend container = new ContainerBackend(engineToUse, imageToRun, List.copyOf(args),
                        environment, Map.copyOf(extraEnv), certsDir, workdir,
                        startupTimeout != null ? startupTimeout : Duration.ofSeconds(90), appleHosts, fcm);
                backend = container;
                description = "container " + container.containerName().orElseThrow() + " (" + imageToRun + ", "
                        + engineToUse.getFileName() + ")";
            } else {
                backend = new ProcessBackend(binaryToRun, List.copyOf(args), environment, Map.copyOf(extraEnv),
                        certsDir, workdir, startupTimeout != null ? startupTimeout : Duration.ofSeconds(30), appleHosts,
                        fcm);
                description = binaryToRun.toString();
            }
            try {
                MockAPNs mock = new MockAPNs(backend, workdir, description, clock, controlTimeout);
                OPEN.add(mock);
                return mock;
            } catch (RuntimeException e) {
                try {
                    backend.stop();
                } catch (RuntimeException second) {
                    e.addSuppressed(second);
                }
                Exec.deleteTree(workdir);
                throw e;
            }
        }

        /** The error for no binary and no image: both ways to get one, and whether an engine is already here. */
        private static String nothingToRun(Map<String, String> env) {
            Path engine;
            try {
                engine = ContainerBackend.findEngine(null, env);
            } catch (MockAPNsException e) {
                engine = null;
            }
            return "No mockapns to run: MOCKAPNS_BIN is not set, there is no mockapns on PATH, and MOCKAPNS_IMAGE is "
                    + "not set. Either build the binary (`swift build --product mockapns`, or unpack the `make dist` "
                    + "tarball) and set MOCKAPNS_BIN to it or put it on PATH; or run the container image: set "
                    + "MOCKAPNS_IMAGE=mockapns:latest (built by `make image`)"
                    + (engine != null ? " — " + engine.getFileName() + " is installed (" + engine + ")."
                            : " and install docker or podman (neither is on PATH).");
        }
    }

    // Where to connect

    /** Where HTTP/2 senders connect, e.g. {@code https://127.0.0.1:40123} (TLS; trust {@link #sslContext()}). */
    public String url() {
        return url;
    }

    /** The host of {@link #url()} ({@code 127.0.0.1}), for clients configured by host and port. */
    public String host() {
        return URI.create(url).getHost();
    }

    /** The port of {@link #url()}. */
    public int port() {
        return URI.create(url).getPort();
    }

    /** The control API and dashboard, e.g. {@code http://127.0.0.1:40124}. */
    public String controlUrl() {
        return controlUrl;
    }

    /** Where HTTP/1.1 senders connect, e.g. {@code http://127.0.0.1:40125} (plain HTTP/1.1, no TLS). */
    public String http1Url() {
        return http1Url;
    }

    /**
     * With {@link Builder#appleHosts()}: Apple's ports (443 and 2197: pushes; 2195: sandbox channel management; 2196:
     * production) → the local port that serves each; empty without.
     */
    public Map<Integer, Integer> applePorts() {
        return applePorts;
    }

    /**
     * Routes Apple's APNs host names to this mock inside this JVM until the interception is closed: a
     * {@code java.net.http.HttpClient} built in between with no proxy and no SSL context of its own (as a production
     * sender is) sends {@code https://api.push.apple.com}, api.sandbox... and api.development... (443, 2197) and the
     * channel-management hosts (2195, 2196) here and trusts the mock's CA; other hosts are untouched. It sets the
     * JVM's default {@link java.net.ProxySelector} and {@link SSLContext} meanwhile (see {@link Interception}).
     * Needs {@link Builder#appleHosts()}; one interception at a time; {@link #close()} ends it too.
     */
    public synchronized Interception intercept() {
        control();
        if (applePorts.isEmpty()) {
            throw new MockAPNsException("intercept() routes Apple's host names to the mock, which serves them only when "
                    + "started with MockAPNs.builder().appleHosts().start().");
        }
        if (interception != null && interception.isActive()) {
            throw new MockAPNsException("Apple's host names already go to this mock; close() that interception first.");
        }
        interception = Interception.start(toString(), host(), applePorts, caPem);
        return interception;
    }

    /** A TLS context that trusts the mock's CA and nothing else: {@code HttpClient.newBuilder().sslContext(...)}. */
    public SSLContext sslContext() {
        return sslContext;
    }

    /** The CA certificate (PEM) that signed the mock's TLS certificate. */
    public String caPem() {
        return caPem;
    }

    /** The CA certificate as a PEM file, for clients that take a file (Pushy's setTrustedServerCertificateChain). */
    public Path caFile() {
        return caFile;
    }

    /** The test signing key (.p8) the mock trusts, for clients that sign their own provider tokens. */
    public Path keyFile() {
        return keyFile;
    }

    /** The key id ({@code kid}) of {@link #keyFile()}: {@code TESTKEY001}. */
    public String keyId() {
        return keyId;
    }

    /** The team id ({@code iss}) of {@link #keyFile()}: {@code TESTTEAM01}. */
    public String teamId() {
        return teamId;
    }

    /**
     * A provider token (ES256 JWT) signed with {@link #keyFile()}, for {@code authorization: bearer <token>}, minted
     * by the mock's own binary ({@code mockapns token}; in container mode the image's, through the engine's exec);
     * the same one for 30 minutes ({@link ProviderToken#REUSE}), as APNs wants.
     */
    public String token() {
        return tokens.get();
    }

    // Google's FCM names (Builder.fcm())

    /** Whether this mock serves FCM ({@link Builder#fcm()}). */
    public boolean servesFcm() {
        return fcm != null;
    }

    /**
     * The mock's own FCM port, e.g. {@code https://127.0.0.1:40127} (TLS; trust {@link #fcmSslContext()}): FCM HTTP
     * v1 at {@code /v1/projects/P/messages:send}, the service account's OAuth grant at {@code /token}, IID topic
     * management at {@code /iid/v1:batchAdd}. For senders given a URL; HTTP/2 and HTTP/1.1.
     */
    public String fcmUrl() {
        return requireFcm("fcmUrl()").url;
    }

    /**
     * The local port behind Google's names (their 443), for senders with {@code https://fcm.googleapis.com} built
     * in, routed here by a hosts entry (docs/fcm.md, "Java"). Process mode: a free port, unless
     * {@code args("--fcm-https-port", "443")}; container mode: the container's 443 as published.
     */
    public int fcmHttpsPort() {
        return requireFcm("fcmHttpsPort()").httpsPort;
    }

    /**
     * A service-account key file of project {@link #FCM_PROJECT} that the mock trusts, as Google's console hands one
     * out ({@code token_uri} https://oauth2.googleapis.com/token): what {@code GoogleCredentials.fromStream(...)}
     * reads. Another project's: {@link #newFcmServiceAccount(String)}.
     */
    public Path fcmServiceAccount() {
        return requireFcm("fcmServiceAccount()").serviceAccount;
    }

    /** The CA certificate (PEM file) the FCM ports' certificate chains to: the mock's own (not the bundled test CA). */
    public Path fcmCaFile() {
        return requireFcm("fcmCaFile()").caFile;
    }

    /** A TLS context that trusts {@link #fcmCaFile()} and nothing else. */
    public SSLContext fcmSslContext() {
        requireFcm("fcmSslContext()");
        return fcmSslContext;
    }

    /**
     * A new service-account key file for {@code project}, which the mock trusts from then on (the project exists once
     * it does), written into the mock's temporary folder; a project id is 6 to 30 of a-z, 0-9 and '-'.
     */
    public Path newFcmServiceAccount(String project) {
        requireFcm("newFcmServiceAccount()");
        Map<String, Object> account = control().object("POST", "/api/v1/fcm/projects/" + pathPart(project)
                + "/service-account", null);
        if (!"service_account".equals(account.get("type"))) {
            throw new MockAPNsException("POST /api/v1/fcm/projects/" + project + "/service-account answered no "
                    + "service-account JSON: " + Json.write(account));
        }
        Path file = workdir.resolve("service-account-" + project.replaceAll("[^A-Za-z0-9-]", "_") + "-"
                + String.valueOf(account.get("private_key_id")).replaceAll("[^A-Za-z0-9]", "_") + ".json");
        try {
            Files.writeString(file, Json.write(account), StandardCharsets.UTF_8);
            if (Files.getFileStore(file).supportsFileAttributeView("posix")) {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------")); // a private key
            }
        } catch (IOException e) {
            throw new MockAPNsException("Cannot write the service-account file " + file + ": " + e.getMessage(), e);
        }
        return file;
    }

    /** Registers an iOS app instance of {@code bundleId} in {@link #FCM_PROJECT}, backed by a new virtual iPhone. */
    public FcmRegistration registerFcm(String bundleId) {
        return registerFcm("ios", bundleId, null, null);
    }

    /** Registers an app instance of {@code bundleId} on {@code platform} ({@code ios}, {@code android}, {@code web}). */
    public FcmRegistration registerFcm(String platform, String bundleId) {
        return registerFcm(platform, bundleId, null, null);
    }

    /**
     * Registers an app instance with the mock's FCM, as the Firebase SDK in an app does ({@code POST
     * /api/v1/fcm/registrations}); its {@link FcmRegistration#token()} is what the sender sends to. {@code project}
     * null: {@link #FCM_PROJECT}. {@code apnsToken} (iOS only): the APNs device token behind it; null, the mock makes
     * one.
     */
    public FcmRegistration registerFcm(String platform, String bundleId, String project, String apnsToken) {
        requireFcm("registerFcm()");
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("project", project != null ? project : FCM_PROJECT);
        body.put("platform", platform);
        body.put("bundle_id", bundleId);
        if (apnsToken != null) body.put("apns_token", apnsToken);
        return new FcmRegistration(control().object("POST", "/api/v1/fcm/registrations", body));
    }

    /** Every recorded FCM request ({@code messages:send}), accepted or refused, oldest first. */
    public List<FcmMessage> fcmMessages() {
        return fcmMessages(new FcmFilter());
    }

    /**
     * The recorded FCM requests that match {@code filter} (its count aside), oldest first; the mock decides what
     * matches. An IllegalArgumentException for {@link FcmFilter#condition(String)} or
     * {@link FcmFilter#validateOnly(boolean)}, which only the expectations take.
     */
    public List<FcmMessage> fcmMessages(FcmFilter filter) {
        requireFcm("fcmMessages()");
        return fetchFcm(filter.query());
    }

    private List<FcmMessage> fetchFcm(String query) {
        Object list = control().object("GET", "/api/v1/fcm/messages" + query, null).get("messages");
        if (!(list instanceof List)) {
            throw new MockAPNsException("GET /api/v1/fcm/messages answered without a \"messages\" list");
        }
        List<FcmMessage> messages = new ArrayList<>();
        for (Object record : (List<?>) list) {
            @SuppressWarnings("unchecked")
            Map<String, Object> fields = (Map<String, Object>) record;
            messages.add(new FcmMessage(fields));
        }
        return messages;
    }

    /**
     * Returns the recorded FCM requests matching {@code filter}, oldest first, when there are
     * {@link FcmFilter#count(int)} of them (at least one when the count is unset, none for 0); otherwise throws an
     * AssertionError with the mock's own report ({@code GET /api/v1/fcm/expect}): what was wanted, the matching FCM
     * records and the closest others, each miss spelled out. A send is recorded before it is answered, so once the
     * sender has its answer, expectFcm sees it.
     */
    public List<FcmMessage> expectFcm(FcmFilter filter) {
        requireFcm("expectFcm()");
        Integer count = filter.count();
        String query = count == null ? filter.expectQuery("at_least", 1)
                : count == 0 ? filter.expectQuery("none", 0) : filter.expectQuery("count", count);
        Map<String, Object> answer = expectation("/api/v1/fcm/expect", query, Duration.ZERO);
        if (!Boolean.TRUE.equals(answer.get("met"))) throw new AssertionError(report(answer, null, NO_FCM_REQUEST));
        return matchedFcm(answer);
    }

    /**
     * Waits until at least {@link FcmFilter#count(int)} recorded FCM requests (one when unset) match {@code filter},
     * and returns them, asking the mock every 50 ms; after {@code timeout}, throws an AssertionError as
     * {@link #expectFcm(FcmFilter)} does, after a line saying how long it waited. For senders that send in the
     * background.
     */
    public List<FcmMessage> waitForFcm(FcmFilter filter, Duration timeout) {
        requireFcm("waitForFcm()");
        Map<String, Object> answer = expectation("/api/v1/fcm/expect", filter.expectQuery("at_least",
                filter.count() == null ? 1 : filter.count()), timeout);
        if (!Boolean.TRUE.equals(answer.get("met"))) {
            throw new AssertionError(report(answer, "Waited " + timeout.toMillis() + " ms.", NO_FCM_REQUEST));
        }
        return matchedFcm(answer);
    }

    /** The FCM records the answer names ({@code matched_seqs}), oldest first. */
    private List<FcmMessage> matchedFcm(Map<String, Object> answer) {
        Object seqs = answer.get("matched_seqs");
        if (!(seqs instanceof List) || ((List<?>) seqs).isEmpty()) return new ArrayList<>();
        List<FcmMessage> matching = new ArrayList<>();
        for (FcmMessage message : fetchFcm("")) {
            if (((List<?>) seqs).contains(message.seq())) matching.add(message);
        }
        return matching;
    }

    /**
     * The APNs pushes an FCM message became ({@link FcmMessage#apnsIds()}), as recorded pushes (their payload holds
     * {@code aps} and FCM's {@code gcm.message_id}, {@code google.c.fid}, ...), in that order; an AssertionError when
     * one of them is no longer recorded.
     */
    public List<Notification> apnsPushesOf(FcmMessage message) {
        Map<String, Notification> byId = new LinkedHashMap<>();
        for (Notification push : notifications()) {
            if (push.apnsId() != null) byId.put(push.apnsId(), push);
        }
        List<Notification> pushes = new ArrayList<>();
        for (String id : message.apnsIds()) {
            Notification push = byId.get(id);
            if (push == null) {
                throw new AssertionError(message + " names the APNs push " + id + ", which the mock has no record of "
                        + "(cleared since?)");
            }
            pushes.add(push);
        }
        return pushes;
    }

    private Backend.Fcm requireFcm(String what) {
        if (fcm == null) {
            throw new MockAPNsException(what + ": this mock serves no FCM; start it with MockAPNs.builder().fcm().start().");
        }
        return fcm;
    }

    // What the mock received

    /** Every recorded push, accepted or rejected, oldest first. */
    public List<Notification> notifications() {
        return notifications(new Filter());
    }

    /** The recorded pushes that match {@code filter} (its count aside), oldest first; the mock decides what matches. */
    public List<Notification> notifications(Filter filter) {
        return fetch(filter.query());
    }

    private List<Notification> fetch(String query) {
        Object list = control().object("GET", "/api/v1/notifications" + query, null).get("notifications");
        if (!(list instanceof List)) {
            throw new MockAPNsException("GET /api/v1/notifications answered without a \"notifications\" list");
        }
        List<Notification> notifications = new ArrayList<>();
        for (Object record : (List<?>) list) {
            @SuppressWarnings("unchecked")
            Map<String, Object> fields = (Map<String, Object>) record;
            notifications.add(new Notification(fields));
        }
        return notifications;
    }

    /**
     * Returns the recorded pushes matching {@code filter} (its filters and {@link Filter#where(String...)} payload
     * conditions), oldest first, when there are {@link Filter#count(int)} of them (at least one when the count is
     * unset); otherwise throws an AssertionError with the mock's own report ({@code GET /api/v1/expect}): what was
     * wanted, the matching records and the closest others, each miss spelled out. A push is recorded before it is
     * answered, so once the sender has its answer, expect sees it.
     */
    public List<Notification> expect(Filter filter) {
        Integer count = filter.count();
        String query = count != null ? filter.expectQuery("count", count) : filter.expectQuery("at_least", 1);
        Map<String, Object> answer = expectation("/api/v1/expect", query, Duration.ZERO);
        if (!Boolean.TRUE.equals(answer.get("met"))) throw new AssertionError(report(answer, null, NO_PUSH));
        return matched(answer, filter);
    }

    /**
     * Waits until at least {@link Filter#count(int)} recorded pushes (one when unset) match {@code filter}, and
     * returns them, asking the mock every 50 ms; after {@code timeout}, throws an AssertionError as
     * {@link #expect(Filter)} does, after a line saying how long it waited. For senders that send in the background.
     */
    public List<Notification> waitFor(Filter filter, Duration timeout) {
        Map<String, Object> answer = expectation("/api/v1/expect", filter.expectQuery("at_least",
                filter.count() == null ? 1 : filter.count()), timeout);
        if (!Boolean.TRUE.equals(answer.get("met"))) {
            throw new AssertionError(report(answer, "Waited " + timeout.toMillis() + " ms.", NO_PUSH));
        }
        return matched(answer, filter);
    }

    /**
     * GET {@code route}{@code query} (/api/v1/expect or /api/v1/fcm/expect), asked again every 50 ms until it is met
     * or {@code timeout} has passed.
     */
    private Map<String, Object> expectation(String route, String query, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Map<String, Object> answer = control().object("GET", route + query, null);
            if (Boolean.TRUE.equals(answer.get("met")) || System.nanoTime() >= deadline) return answer;
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new MockAPNsException("Interrupted while waiting on " + route + query, e);
            }
        }
    }

    private static final String NO_PUSH = "No push reached the mock: is the sender pointed at mock.url() (or "
            + "mock.http1Url()) and trusting mock.sslContext()?";
    private static final String NO_FCM_REQUEST = "No FCM request reached the mock: is the sender pointed at "
            + "mock.fcmUrl() (or Google's names routed to mock.fcmHttpsPort()) and trusting mock.fcmSslContext()?";

    /**
     * The mock's message, after {@code first} (when given) and {@code nothingArrived} when nothing reached the mock at
     * all ({@code considered} 0).
     */
    private static String report(Map<String, Object> answer, String first, String nothingArrived) {
        StringBuilder text = new StringBuilder();
        if (first != null) text.append(first).append('\n');
        if (Long.valueOf(0).equals(answer.get("considered"))) text.append(nothingArrived).append('\n');
        return text.append(String.valueOf(answer.get("message")).replaceAll("\n+$", "")).toString();
    }

    /** The records the answer names ({@code matched_seqs}), oldest first. */
    private List<Notification> matched(Map<String, Object> answer, Filter filter) {
        Object seqs = answer.get("matched_seqs");
        if (!(seqs instanceof List) || ((List<?>) seqs).isEmpty()) return new ArrayList<>();
        List<Notification> matching = new ArrayList<>();
        for (Notification n : notifications(filter)) {
            if (((List<?>) seqs).contains(n.seq())) matching.add(n);
        }
        return matching;
    }

    // What the mock does

    /** Makes {@code token} answer as {@code state} says from now on; returns the control API's answer. */
    public Map<String, Object> setDevice(String token, DeviceState state) {
        return control().object("PUT", devicePath(token), state.body());
    }

    /**
     * Makes {@code token} answer as the named state says: {@code unregistered} (410), {@code expired} (410
     * ExpiredToken) or {@code otherEnvironment} (400 BadDeviceToken).
     */
    public Map<String, Object> setDevice(String token, String state) {
        return setDevice(token, DeviceState.named(state));
    }

    /** Forgets what the mock was told about {@code token} (its state and changes): it is a live device again. */
    public void forgetDevice(String token) {
        control().request("DELETE", devicePath(token), null);
    }

    /** What device {@code token} shows now, computed by the mock from its changes and the pushes it accepted. */
    public DeviceScreen device(String token) {
        return new DeviceScreen(control().object("GET", devicePath(token) + "/screen", null));
    }

    /** Adds a rule to the fault plan and returns its id. */
    public String addFault(Fault fault) {
        Object id = control().object("POST", "/api/v1/faults", fault.body()).get("id");
        return String.valueOf(id);
    }

    /** Removes one fault rule by the id {@link #addFault(Fault)} returned. */
    public void removeFault(String id) {
        control().request("DELETE", "/api/v1/faults/" + URLEncoder.encode(id, StandardCharsets.UTF_8), null);
    }

    /**
     * Forgets the recorded pushes, device states and changes, and fault rules, and a mock serving FCM its FCM records:
     * the mock behaves as if just started (record numbering goes on). FCM registrations, their topics and trusted
     * service accounts stay.
     */
    public void clear() {
        ControlClient client = control();
        List<String> paths = new ArrayList<>(List.of("/api/v1/notifications", "/api/v1/devices", "/api/v1/faults"));
        if (fcm != null) paths.add("/api/v1/fcm/messages");
        for (String path : paths) {
            client.request("DELETE", path, null);
        }
    }

    // Lifecycle

    /** Whether the mock was started and has neither been closed nor died. */
    public boolean isRunning() {
        return stoppedReason() == null;
    }

    /** Null while the mock runs; otherwise why not (closed, or how it ended with its last output). */
    public String stoppedReason() {
        if (closed) return "This MockAPNs was closed; start a new one with MockAPNs.start().";
        return backend.death();
    }

    /** The server process, in process mode (empty for a container). */
    public Optional<ProcessHandle> process() {
        return backend.process();
    }

    /** The container's name, in container mode (empty for a process). */
    public Optional<String> containerName() {
        return backend.containerName();
    }

    /**
     * Stops the mock (SIGTERM to the server, which flushes and exits; a container is removed) and deletes its
     * temporary files. Safe to call more than once.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) return;
            closed = true;
        }
        OPEN.remove(this);
        synchronized (this) {
            if (interception != null) interception.close();
        }
        try {
            backend.stop();
        } finally {
            Exec.deleteTree(workdir);
        }
    }

    @Override
    public String toString() {
        return "MockAPNs(" + description + (closed ? ", closed" : ", " + url) + ")";
    }

    private ControlClient control() {
        if (closed) throw new MockAPNsException("This MockAPNs was closed; start a new one with MockAPNs.start().");
        return control;
    }

    private static String devicePath(String token) {
        return "/api/v1/devices/" + pathPart(token);
    }

    private static String pathPart(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** A TLS context whose only trusted roots are the certificates in {@code pem}. */
    static SSLContext trusting(String pem) {
        try {
            KeyStore roots = KeyStore.getInstance(KeyStore.getDefaultType());
            roots.load(null, null);
            int n = 0;
            for (Certificate certificate : CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))) {
                roots.setCertificateEntry("mockapns-ca-" + n++, certificate);
            }
            if (n == 0) throw new MockAPNsException("The mock's CA holds no certificate: " + pem);
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(roots);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new MockAPNsException("Cannot read the mock's CA certificate: " + e.getMessage(), e);
        }
    }

    /** The key token() signs with: TESTKEY001, else the first valid in both environments for every topic. */
    private static Map<String, Object> signingKey(Path certsDir) {
        Path list = certsDir.resolve("keys.json");
        Object keys;
        try {
            keys = Json.parse(Files.readAllBytes(list));
        } catch (IOException | IllegalArgumentException e) {
            throw new MockAPNsException("Cannot read the test key list " + list + ": " + e.getMessage() + ".", e);
        }
        if (!(keys instanceof List)) throw new MockAPNsException(list + " is not a JSON list of keys.");
        Map<?, ?> chosen = null;
        for (Object key : (List<?>) keys) {
            if (key instanceof Map && "TESTKEY001".equals(((Map<?, ?>) key).get("key_id"))) chosen = (Map<?, ?>) key;
        }
        for (Object key : (List<?>) keys) {
            if (chosen == null && key instanceof Map && "both".equals(((Map<?, ?>) key).get("environment"))
                    && ((Map<?, ?>) key).get("topics") == null) {
                chosen = (Map<?, ?>) key;
            }
        }
        if (chosen == null || !(chosen.get("key_id") instanceof String) || !(chosen.get("team_id") instanceof String)
                || !(chosen.get("file") instanceof String)) {
            throw new MockAPNsException(list + " names no signing key valid in both environments for every topic "
                    + "(with key_id, team_id and file); regenerate it with certs/generate.sh.");
        }
        Map<String, Object> key = new LinkedHashMap<>();
        chosen.forEach((name, value) -> key.put(String.valueOf(name), value));
        return key;
    }

    /** The ready file's text (the container's, in container mode); for the kit's tests. */
    String readyFile() {
        return backend.readyFile();
    }

    /** The container engine, in container mode. */
    Optional<Path> engine() {
        return backend instanceof ContainerBackend ? Optional.of(((ContainerBackend) backend).engine()) : Optional.empty();
    }
}
