package dev.mockapns;

import java.nio.file.Path;
import java.util.Optional;

/** Where a mock runs: a {@code mockapns serve} child process, or a container. */
interface Backend {
    /** What a started backend tells the kit. */
    final class Ready {
        final String apnsUrl;
        final String controlUrl;
        /** The CA that signed the server's certificate, as a PEM file. */
        final Path caFile;
        /** The folder of the test keys (keys.json, AuthKey_*.p8) the mock trusts. */
        final Path certsDir;
        /** With FCM: what the sender of Firebase messages needs; null without. */
        final Fcm fcm;

        Ready(String apnsUrl, String controlUrl, Path caFile, Path certsDir, Fcm fcm) {
            this.apnsUrl = apnsUrl;
            this.controlUrl = controlUrl;
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

    /** Null while the mock runs; otherwise a sentence saying how it ended, with its last output. */
    String death();

    /** Stops it and removes what it left (the process, the container); safe to repeat. */
    void stop();

    /** The server process, in process mode. */
    Optional<ProcessHandle> process();

    /** The container's name, in container mode. */
    Optional<String> containerName();
}
