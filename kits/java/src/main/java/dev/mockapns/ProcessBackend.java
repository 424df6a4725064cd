package dev.mockapns;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * {@code mockapns serve} on free loopback ports as a child process. It writes a ready file once every listener is
 * up; its output goes to a log file in the mock's temporary folder, which errors quote.
 */
final class ProcessBackend implements Backend {
    /** How many lines of the server's output an error quotes. */
    static final int TAIL_LINES = 20;
    /** swift-argument-parser's answer to an FCM option the binary does not have. */
    private static final Pattern UNKNOWN_FCM_OPTION =
            Pattern.compile("unknown option '--fcm(-port|-https-port)?'", Pattern.CASE_INSENSITIVE);

    private final Path binary;
    private final List<String> args;
    private final Map<String, String> env;
    private final Map<String, String> extraEnv;
    private final Path explicitCerts;
    private final Path workdir;
    private final Duration startupTimeout;
    private final boolean appleHosts;
    private final boolean fcm;
    private final Path log;
    private Process process;
    private List<String> command;

    ProcessBackend(Path binary, List<String> args, Map<String, String> env, Map<String, String> extraEnv,
                   Path explicitCerts, Path workdir, Duration startupTimeout, boolean appleHosts, boolean fcm) {
        this.binary = binary;
        this.args = args;
        this.env = env;
        this.extraEnv = extraEnv;
        this.explicitCerts = explicitCerts;
        this.workdir = workdir;
        this.startupTimeout = startupTimeout;
        this.appleHosts = appleHosts;
        this.fcm = fcm;
        this.log = workdir.resolve("serve.log");
    }

    /** The binary to run: {@code explicit} (the builder's), else $MOCKAPNS_BIN, else mockapns on PATH; null if none. */
    static Path find(String explicit, Map<String, String> env) {
        if (explicit != null) return checkedBinary(explicit, "The binary given to MockAPNs.builder().binary()");
        String fromEnv = env.get("MOCKAPNS_BIN");
        if (fromEnv != null && !fromEnv.isBlank()) return checkedBinary(fromEnv, "MOCKAPNS_BIN");
        return Exec.onPath("mockapns", env.get("PATH")).map(Path::toAbsolutePath).orElse(null);
    }

    private static Path checkedBinary(String file, String source) {
        Path path = Path.of(file).toAbsolutePath();
        if (!Files.exists(path)) {
            throw new MockAPNsException(source + " is " + file + ", but there is no file there. Build mockapns "
                    + "(`swift build --product mockapns`, or the `make dist` tarball) and point it at the binary.");
        }
        if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
            throw new MockAPNsException(source + " is " + file + ", which is not an executable file"
                    + (Files.isRegularFile(path) ? " (run `chmod +x " + file + "`)" : "") + "; point it at the mockapns binary.");
        }
        return path;
    }

    /**
     * Where the test keys may be, in the order the binary itself looks: the builder's folder or $MOCKAPNS_CERTS_DIR,
     * then certs/ beside the (symlink-resolved) binary and in each of the five folders above it.
     */
    static List<Path> certsCandidates(Path explicit, Path binary, Map<String, String> env) {
        Set<Path> candidates = new LinkedHashSet<>();
        if (explicit != null) candidates.add(explicit);
        String fromEnv = env.get("MOCKAPNS_CERTS_DIR");
        if (explicit == null && fromEnv != null && !fromEnv.isBlank()) candidates.add(Path.of(fromEnv));
        if (binary != null) {
            Path resolved = binary;
            try {
                resolved = binary.toRealPath();
            } catch (IOException ignored) {
                // the unresolved path still names a folder worth looking in
            }
            Path dir = resolved.getParent();
            for (int i = 0; i < 6 && dir != null; i++, dir = dir.getParent()) candidates.add(dir.resolve("certs"));
        }
        return new ArrayList<>(candidates);
    }

    /** The first candidate holding keys.json, or null. */
    static Path firstWithKeys(List<Path> candidates) {
        for (Path dir : candidates) {
            if (Files.isRegularFile(dir.resolve("keys.json"))) return dir.toAbsolutePath();
        }
        return null;
    }

    @Override
    public Ready start() {
        command = new ArrayList<>(List.of(binary.toString()));
        command.addAll(arguments(workdir, appleHosts, fcm));
        command.addAll(args); // after the kit's, so an option given here wins
        List<Path> candidates = certsCandidates(explicitCerts, binary, env);
        Path certs = firstWithKeys(candidates);

        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(Exec.devNull()))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        // The server gets the test's environment without MOCKAPNS_* settings (a MOCKAPNS_CONTROL_TOKEN or
        // MOCKAPNS_H2C meant for another mock would change this one), plus the credentials the kit found and the
        // variables given to the builder.
        Map<String, String> childEnv = new LinkedHashMap<>();
        env.forEach((name, value) -> {
            if (!name.startsWith("MOCKAPNS_")) childEnv.put(name, value);
        });
        if (certs != null) childEnv.put("MOCKAPNS_CERTS_DIR", certs.toString());
        // The default project's service account is made once in the data folder: this mock's own, so its private
        // key dies with the mock and two mocks starting at once neither share nor race for one.
        if (fcm) childEnv.put("XDG_DATA_HOME", workdir.resolve("data").toString());
        childEnv.putAll(extraEnv);
        builder.environment().clear();
        builder.environment().putAll(childEnv);
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new MockAPNsException("Cannot run " + binary + ": " + e.getMessage()
                    + ". Point MOCKAPNS_BIN at a mockapns built for this machine.", e);
        }

        long deadline = System.nanoTime() + startupTimeout.toNanos();
        Map<String, Object> ready = null;
        while (ready == null) {
            if (!process.isAlive()) {
                String output = Exec.readQuietly(log);
                throw new MockAPNsException("`" + String.join(" ", command) + "` " + exitText()
                        + " before it was ready. Its output:\n" + Exec.tail(output, TAIL_LINES)
                        + (fcm && UNKNOWN_FCM_OPTION.matcher(output).find()
                                ? "\nThis mockapns does not know --fcm (MockAPNs.builder().fcm()): point MOCKAPNS_BIN "
                                        + "at a build with the FCM front door." : ""));
            }
            ready = readReady(workdir.resolve("ready.json"));
            if (ready != null) break;
            if (System.nanoTime() > deadline) {
                stop();
                throw new MockAPNsException("`" + String.join(" ", command) + "` did not write its ready file within "
                        + startupTimeout.toSeconds() + " s, so it was stopped. Its output:\n"
                        + Exec.tail(Exec.readQuietly(log), TAIL_LINES)
                        + "\nGive it longer with MockAPNs.builder().startupTimeout(...) on a slow machine.");
            }
            sleep(20);
        }
        Object controlUrl = ready.get("control_url");
        if (!(controlUrl instanceof String)) {
            stop();
            throw new MockAPNsException("The mock started without a control plane (is --no-control in args?); the kit "
                    + "needs it to read what was sent. Ready file: " + Json.write(ready));
        }
        Path caFile = ready.get("ca_file") instanceof String ? Path.of((String) ready.get("ca_file")) : null;
        if (certs == null && caFile != null && Files.isRegularFile(caFile.resolveSibling("keys.json"))) {
            certs = caFile.getParent().toAbsolutePath();
        }
        // A CA of the mock's own (fcm) is not beside the test keys; the ready file names their folder itself.
        if (certs == null && ready.get("certs_dir") instanceof String
                && Files.isRegularFile(Path.of((String) ready.get("certs_dir"), "keys.json"))) {
            certs = Path.of((String) ready.get("certs_dir")).toAbsolutePath();
        }
        if (certs == null) {
            stop();
            List<String> searched = new ArrayList<>();
            for (Path candidate : candidates) searched.add(candidate.toString());
            if (caFile != null) searched.add(caFile.getParent().toString());
            throw new MockAPNsException("Cannot find the test signing keys (a certs/ folder with keys.json); looked in "
                    + String.join(", ", searched) + ". Set MOCKAPNS_CERTS_DIR to the MockAPNs repository's certs/ "
                    + "folder (or the one beside the binary in the `make dist` tarball).");
        }
        if (caFile == null) caFile = certs.resolve("ca.pem");
        Fcm fcmReady = fcm ? fcmReady(ready) : null;
        Map<Integer, Integer> applePorts = new LinkedHashMap<>();
        if (ready.get("apple_ports") instanceof Map) {
            ((Map<?, ?>) ready.get("apple_ports")).forEach((apple, local) ->
                    applePorts.put(Integer.valueOf(String.valueOf(apple)), ((Number) local).intValue()));
        }
        if (!(ready.get("http1_url") instanceof String) || (appleHosts && applePorts.size() != 4)) {
            stop();
            throw new MockAPNsException("`" + String.join(" ", command) + "` started, but its ready file does not name "
                    + (appleHosts ? "http1_url and apple_ports" : "http1_url") + ": this mockapns ("
                    + ready.getOrDefault("version", "unknown version") + ") is older than the kit; use a newer binary. "
                    + "Ready file: " + Json.write(ready));
        }
        return new Ready((String) ready.get("apns_url"), (String) controlUrl, (String) ready.get("http1_url"),
                applePorts, caFile, certs, fcmReady);
    }

    /**
     * {@code mockapns serve}'s arguments as kits/spec/launch.json's binary cases have them: every listener on a free
     * port, HTTP/1.1 always, the ready file in {@code workdir}; Apple's names and FCM share a CA of this mock's own in
     * {@code workdir/ca} (its key dies with the mock; --apple-hosts refuses the bundled test CA, whose key is public).
     */
    static List<String> arguments(Path workdir, boolean appleHosts, boolean fcm) {
        List<String> arguments = new ArrayList<>(List.of("serve", "--port", "0", "--control-port", "0",
                "--http1-port", "0", "--ready-file", workdir.resolve("ready.json").toString(), "--quiet"));
        String ca = workdir.resolve("ca").toString();
        if (appleHosts) {
            arguments.addAll(List.of("--apple-hosts", "--ca-dir", ca, "--apple-https-port", "0",
                    "--manage-sandbox-port", "0", "--manage-production-port", "0"));
        }
        if (fcm) {
            if (!appleHosts) arguments.addAll(List.of("--ca-dir", ca));
            arguments.addAll(List.of("--fcm", "--fcm-port", "0", "--fcm-https-port", "0"));
        }
        return arguments;
    }

    /** The ready file's FCM fields; a MockAPNsException (the server stopped) when a field the kit needs is missing. */
    private Fcm fcmReady(Map<String, Object> ready) {
        Object url = ready.get("fcm_url");
        Object ports = ready.get("fcm_ports");
        Object google = ports instanceof Map ? ((Map<?, ?>) ports).get("443") : null;
        Object account = ready.get("fcm_service_account");
        Object ca = ready.get("fcm_ca_file");
        if (!(url instanceof String) || !(google instanceof Number) || !(account instanceof String)
                || !(ca instanceof String)) {
            stop();
            throw new MockAPNsException("`" + String.join(" ", command) + "` started, but its ready file does not name "
                    + "fcm_url, fcm_ports (443), fcm_service_account and fcm_ca_file: this mockapns ("
                    + ready.getOrDefault("version", "unknown version") + ") does not serve FCM as the kit expects; use "
                    + "a newer binary. Ready file: " + Json.write(ready));
        }
        return new Fcm((String) url, ((Number) google).intValue(), Path.of((String) account), Path.of((String) ca));
    }

    /** The ready file's object once it names the APNs URL; null before the server wrote it (atomically, by rename). */
    private static Map<String, Object> readReady(Path file) {
        if (!Files.isRegularFile(file)) return null;
        try {
            Map<String, Object> ready = Json.parseObject(Exec.readQuietly(file), "the ready file");
            return ready.get("apns_url") instanceof String ? ready : null;
        } catch (IllegalArgumentException notYet) {
            return null;
        }
    }

    @Override
    public String controlToken() {
        return null;
    }

    @Override
    public String mintToken(String teamId, String keyId, Path keyFile) {
        return ProviderToken.minted(Exec.run(List.of(binary.toString(), "token", "--key-file",
                teamId + ":" + keyId + ":" + keyFile, "--json"), env, Duration.ofSeconds(60)));
    }

    @Override
    public String readyFile() {
        return Exec.readQuietly(workdir.resolve("ready.json"));
    }

    @Override
    public String death() {
        if (process == null || process.isAlive()) return null;
        return "The mockapns server (pid " + process.pid() + ") is no longer running: it " + exitText()
                + ". Its last output:\n" + Exec.tail(Exec.readQuietly(log), TAIL_LINES)
                + "\nStart a new MockAPNs (the JUnit extension starts one for the next test).";
    }

    private String exitText() {
        int code = process.exitValue();
        // Java reports a child killed by signal N as exit code 128 + N, as a shell does, so such a code is
        // ambiguous: both readings are given.
        if (code > 128 && code < 160) return "exited with code " + code + " (or was killed by signal " + (code - 128) + ")";
        return "exited with code " + code;
    }

    @Override
    public void stop() {
        if (process == null || !process.isAlive()) return;
        process.destroy(); // SIGTERM: the server flushes its recording and exits
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public Optional<ProcessHandle> process() {
        return process == null ? Optional.empty() : Optional.of(process.toHandle());
    }

    @Override
    public Optional<String> containerName() {
        return Optional.empty();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MockAPNsException("Interrupted while waiting for the mock to start", e);
        }
    }
}
