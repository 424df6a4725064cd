package dev.mockapns;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** Where a mock runs: a {@code mockapns serve} child process, or a container. */
interface Backend {
    /** What a started backend tells the kit. */
    final class Ready {
        final String apnsUrl;
        final String controlUrl;
        /** The plain HTTP/1.1 APNs endpoint, {@code http://127.0.0.1:PORT}. */
        final String http1Url;
        /** With Apple's host names: Apple's port (443, 2197, 2195, 2196) → where this machine reaches it; else empty. */
        final Map<Integer, Integer> applePorts;
        /** The CA that signed the server's certificate, as a PEM file. */
        final Path caFile;
        /** The folder of the test keys (keys.json, AuthKey_*.p8) the mock trusts. */
        final Path certsDir;
        /** With FCM: what the sender of Firebase messages needs; null without. */
        final Fcm fcm;

        Ready(String apnsUrl, String controlUrl, String http1Url, Map<Integer, Integer> applePorts, Path caFile,
              Path certsDir, Fcm fcm) {
            this.apnsUrl = apnsUrl;
            this.controlUrl = controlUrl;
            this.http1Url = http1Url;
            this.applePorts = Map.copyOf(applePorts);
            this.caFile = caFile;
            this.certsDir = certsDir;
            this.fcm = fcm;
        }
    }

    /** The FCM front door of a mock started with it ({@code serve --fcm}), as this machine reaches it. */
    final class Fcm {
        /** The mock's own FCM port, {@code https://127.0.0.1:PORT}. */
        final String url;
        /** The local port behind Google's names (their 443). */
        final int httpsPort;
        /** A service-account key file of the default project that the mock trusts, on this machine. */
        final Path serviceAccount;
        /** The CA (PEM file) the FCM ports' certificate chains to, on this machine. */
        final Path caFile;

        Fcm(String url, int httpsPort, Path serviceAccount, Path caFile) {
            this.url = url;
            this.httpsPort = httpsPort;
            this.serviceAccount = serviceAccount;
            this.caFile = caFile;
        }
    }

    /** Starts the mock and waits until it serves; a MockAPNsException says why it could not (and it is stopped). */
    Ready start();

    /** The control plane's token, or null when it needs none. */
    String controlToken();

    /**
     * A new provider token for the key {@code teamId:keyId} ({@code keyFile} on this machine), minted by the mock's
     * own binary as launch.json's provider_token says: the binary's {@code token --key-file ... --json}, or the
     * image's {@code mockapns token --json} through the engine's exec (the key it signs with by default).
     */
    String mintToken(String teamId, String keyId, Path keyFile);

    /** The ready file's text: the one in the mock's folder, or the container's ($MOCKAPNS_READY_FILE). */
    String readyFile();

    /** Null while the mock runs; otherwise a sentence saying how it ended, with its last output. */
    String death();

    /** Stops it and removes what it left (the process, the container); safe to repeat. */
    void stop();

    /** The server process, in process mode. */
    Optional<ProcessHandle> process();

    /** The container's name, in container mode. */
    Optional<String> containerName();
}
