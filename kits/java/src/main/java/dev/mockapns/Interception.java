package dev.mockapns;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.NoSuchAlgorithmException;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * Apple's APNs host names routed to a mock inside this JVM, from {@link MockAPNs#intercept()} until
 * {@link #close()}: a {@code java.net.http.HttpClient} built in between without a proxy or an SSL context of its own
 * (as a sender is built in production) sends {@code https://api.push.apple.com} (and api.sandbox..., 
 * api.development..., on 443 or 2197; the channel-management hosts on 2195 and 2196) to the mock and trusts its CA.
 *
 * <p>How, without patching the client: the JDK's HttpClient takes {@link ProxySelector#getDefault()} and
 * {@link SSLContext#getDefault()} when it is built. While an interception is in force the default selector sends
 * Apple's names (and only them) through a CONNECT tunnel in this JVM to the mock's listener for that port, and the
 * default SSL context trusts the mock's CA beside the JDK's own roots; TLS stays end to end between the sender and
 * the mock, which serves a certificate for Apple's names. Every other host goes where the previous selector sent it.
 * A client built before {@code intercept()} keeps its own; one built during it keeps the tunnel, which closes with the
 * interception. Clients that do not consult the default selector (Netty's, so Pushy) are not routed. One interception
 * at a time in a JVM.
 */
public final class Interception implements AutoCloseable {
    /** Apple's APNs host names and the ports APNs serves each on: pushes on 443 and 2197, channel management on 2195
     * (sandbox) and 2196 (production). */
    public static final Map<String, List<Integer>> APPLE_HOSTS = Map.of(
            "api.push.apple.com", List.of(443, 2197),
            "api.sandbox.push.apple.com", List.of(443, 2197),
            "api.development.push.apple.com", List.of(443, 2197),
            "api-manage-broadcast.sandbox.push.apple.com", List.of(2195),
            "api-manage-broadcast.push.apple.com", List.of(2196));

    private static Interception active;

    private final String owner;
    private final String address;
    private final Map<Integer, Integer> ports;
    private final ServerSocket tunnels;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final ProxySelector previousSelector;
    private final SSLContext previousContext;
    private boolean closed;

    private Interception(String owner, String address, Map<Integer, Integer> ports, String caPem) throws IOException {
        this.owner = owner;
        this.address = address;
        this.ports = Map.copyOf(ports);
        this.previousSelector = ProxySelector.getDefault();
        try {
            this.previousContext = SSLContext.getDefault();
        } catch (NoSuchAlgorithmException e) {
            throw new MockAPNsException("The JVM has no default SSL context to restore later: " + e.getMessage(), e);
        }
        SSLContext trusting = trustingWithJdkRoots(caPem);
        this.tunnels = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::accept, "MockAPNs interception " + tunnels.getLocalPort());
        accept.setDaemon(true);
        accept.start();
        ProxySelector.setDefault(new Selector(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                tunnels.getLocalPort()), previousSelector));
        SSLContext.setDefault(trusting);
    }

    /** Starts routing Apple's names to {@code address} ({@code ports}: Apple's port → the mock's), trusting {@code caPem}. */
    static synchronized Interception start(String owner, String address, Map<Integer, Integer> ports, String caPem) {
        if (active != null) {
            throw new MockAPNsException("Apple's host names already go to " + (active.owner.equals(owner) ? "this mock"
                    : active.owner) + "; close() that interception (or the mock) before intercept() again.");
        }
        try {
            active = new Interception(owner, address, ports, caPem);
        } catch (IOException e) {
            throw new MockAPNsException("Cannot open the interception's tunnel on the loopback: " + e.getMessage(), e);
        }
        return active;
    }

    /** Ends the interception: Apple's names go where they went before, the JVM's default SSL context is restored and
     * the tunnels are closed. Safe to call more than once. */
    @Override
    public void close() {
        synchronized (Interception.class) {
            if (closed) return;
            closed = true;
            if (active == this) active = null;
            ProxySelector.setDefault(previousSelector);
            SSLContext.setDefault(previousContext);
        }
        closeQuietly(tunnels);
        for (Socket socket : open) closeQuietly(socket);
    }

    /** Whether this interception is still in force. */
    public synchronized boolean isActive() {
        return !closed;
    }

    private void accept() {
        while (true) {
            Socket client;
            try {
                client = tunnels.accept();
            } catch (IOException closedNow) {
                return;
            }
            open.add(client);
            Thread tunnel = new Thread(() -> tunnel(client), "MockAPNs tunnel");
            tunnel.setDaemon(true);
            tunnel.start();
        }
    }

    /** One CONNECT: Apple's host and port → the mock's listener for that port; anything else is refused. */
    private void tunnel(Socket client) {
        try (Socket sender = client) {
            InputStream in = sender.getInputStream();
            OutputStream out = sender.getOutputStream();
            String[] request = head(in).split("\r\n", 2)[0].split(" ");
            String[] target = request.length == 3 && request[0].equals("CONNECT") ? request[1].split(":") : new String[0];
            List<Integer> served = target.length == 2 ? APPLE_HOSTS.get(target[0].toLowerCase(Locale.ROOT)) : null;
            Integer port = served != null && served.contains(Integer.valueOf(target[1])) ? ports.get(Integer.valueOf(target[1])) : null;
            if (port == null) {
                out.write(("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                return;
            }
            try (Socket mock = new Socket(Proxy.NO_PROXY)) {
                open.add(mock);
                mock.connect(new InetSocketAddress(address, port), 10_000);
                out.write("HTTP/1.1 200 Connection established\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                Thread up = new Thread(() -> pipe(in, mock), "MockAPNs tunnel up");
                up.setDaemon(true);
                up.start();
                mock.getInputStream().transferTo(out);
            } finally {
                open.removeIf(Socket::isClosed);
            }
        } catch (IOException | RuntimeException ended) {
            // the sender or the mock closed its side; the tunnel is done
        } finally {
            open.remove(client);
        }
    }

    private static void pipe(InputStream from, Socket to) {
        try {
            from.transferTo(to.getOutputStream());
            to.shutdownOutput();
        } catch (IOException ended) {
            closeQuietly(to);
        }
    }

    /** The request head (up to the blank line), at most 8 KB. */
    private static String head(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int c;
        while (head.length() < 8192 && (c = in.read()) != -1) {
            head.append((char) c);
            if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) break;
        }
        return head.toString();
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // closing is best effort
        }
    }

    /** A TLS context trusting the mock's CA and every root the JDK trusts by default. */
    private static SSLContext trustingWithJdkRoots(String caPem) {
        try {
            KeyStore roots = KeyStore.getInstance(KeyStore.getDefaultType());
            roots.load(null, null);
            TrustManagerFactory jdk = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            jdk.init((KeyStore) null);
            int n = 0;
            for (TrustManager manager : jdk.getTrustManagers()) {
                if (!(manager instanceof X509TrustManager)) continue;
                for (X509Certificate root : ((X509TrustManager) manager).getAcceptedIssuers()) {
                    roots.setCertificateEntry("jdk-" + n++, root);
                }
            }
            for (Certificate certificate : CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(caPem.getBytes(StandardCharsets.US_ASCII)))) {
                roots.setCertificateEntry("mockapns-ca-" + n++, certificate);
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(roots);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new MockAPNsException("Cannot make an SSL context trusting the mock's CA: " + e.getMessage(), e);
        }
    }

    /** Apple's names through the tunnel; every other URI as the previous selector (or none) says. */
    private static final class Selector extends ProxySelector {
        private final Proxy tunnel;
        private final ProxySelector previous;

        Selector(SocketAddress tunnel, ProxySelector previous) {
            this.tunnel = new Proxy(Proxy.Type.HTTP, tunnel);
            this.previous = previous;
        }

        @Override
        public List<Proxy> select(URI uri) {
            String host = uri.getHost();
            if (host != null && APPLE_HOSTS.containsKey(host.toLowerCase(Locale.ROOT))
                    && "https".equalsIgnoreCase(uri.getScheme())) {
                return List.of(tunnel);
            }
            return previous != null ? previous.select(uri) : List.of(Proxy.NO_PROXY);
        }

        @Override
        public void connectFailed(URI uri, SocketAddress address, IOException e) {
            if (previous != null && !APPLE_HOSTS.containsKey(String.valueOf(uri.getHost()).toLowerCase(Locale.ROOT))) {
                previous.connectFailed(uri, address, e);
            }
        }
    }
}
