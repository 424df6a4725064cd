import Foundation
import Hummingbird
import HummingbirdHTTP2
import Logging
import MockAPNs
import NIOCore
import NIOSSL
import ServiceLifecycle
import Support

/// One TLS port of the FCM front door: Hummingbird over SwiftNIO with ALPN `h2` and `http/1.1` on the same port,
/// as Google serves (`requests` speaks HTTP/1.1, httpx and node's `http2` speak HTTP/2), with a certificate for
/// Google's names and the loopback ones signed by the mock's private CA.
///
/// A `Service`: it binds in ``run()``, reports its port through ``waitUntilListening()``, and on graceful shutdown
/// Hummingbird stops accepting, lets requests in flight finish, and closes.
public final class FCMListener: Service, Sendable {
    /// What a port stands for, for logs and the ready file.
    public enum Role: String, Sendable {
        /// The mock's own FCM port (`--fcm-port`).
        case own = "the FCM front door"
        /// The port behind Google's names (`--fcm-https-port`, 443).
        case google = "the FCM front door for Google's names"
    }

    /// What this port stands for.
    public let role: Role
    private let frontDoor: FCMFrontDoor
    private let host: String
    private let requestedPort: Int
    private let tls: TLSConfiguration
    private let logger: Logger
    private let listening = Readiness<Int>()
    private let bound = Locked<Int?>(nil)

    /// A listener of `frontDoor` on `host:port` (0: a free port) presenting `identity`.
    public init(frontDoor: FCMFrontDoor, role: Role, host: String, port: Int, identity: FCMIdentity, logger: Logger) throws(FCMSetupError) {
        self.frontDoor = frontDoor
        self.role = role
        self.host = host
        requestedPort = port
        self.logger = logger
        do {
            let chain = try NIOSSLCertificate.fromPEMBytes(Array(identity.certificateChainPEM.utf8)).map { NIOSSLCertificateSource.certificate($0) }
            let key = try NIOSSLPrivateKey(bytes: Array(identity.privateKeyPEM.utf8), format: .pem)
            var tls = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
            tls.applicationProtocols = ["h2", "http/1.1"]
            // On close, NIOSSL waits this long for the peer's close_notify (5 s by default). An idle keep-alive client
            // (requests' pool, node's agent) never reads it until its next request, so shutting down waited the whole
            // default for each such connection; a peer that answers does so within milliseconds.
            tls.shutdownTimeout = .milliseconds(250)
            self.tls = tls
        } catch {
            throw .file(path: "the FCM certificate", problem: "TLS cannot use it: \(error)")
        }
    }

    /// The bound port while listening.
    public var port: Int? { bound.withLock { $0 } }

    /// Returns the bound port once listening, or throws why it could not bind.
    @discardableResult
    public func waitUntilListening() async throws -> Int { try await listening.value() }

    /// Serves until the group shuts down.
    public func run() async throws {
        let (listening, bound, logger, role, host) = (self.listening, self.bound, self.logger, self.role, self.host)
        let requested = requestedPort
        defer { bound.withLock { $0 = nil } }
        let app = Application(
            responder: FCMResponder(frontDoor: frontDoor),
            server: try .http2Upgrade(tlsConfiguration: tls),
            configuration: ApplicationConfiguration(address: .hostname(host, port: requested), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? requested
                bound.withLock { $0 = port }
                logger.info("FCM front door listening", metadata: ["role": "\(role.rawValue)", "url": "https://\(host):\(port)"])
                listening.succeed(port)
            },
            logger: logger)
        do {
            try await app.run()
        } catch {
            let failure = FCMListenerError(role: role, host: host, port: requested, reason: Self.reason(error))
            if listening.current == nil { listening.fail(failure) }
            throw failure
        }
        listening.fail(FCMListenerError(role: role, host: host, port: requested, reason: "it stopped before it was listening"))
    }
}

extension FCMListener {
    /// Why binding failed, in words: NIO's `IOError` spells its call and errno.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? IOError else { return "\(error)" }
        switch error.errnoCode {
        case EADDRINUSE: return "the address is already in use"
        case EACCES: return "permission denied"
        case EADDRNOTAVAIL: return "no interface has that address"
        default: return "\(error)"
        }
    }
}

/// An FCM port that could not listen, in a sentence naming the flag that moves it.
public struct FCMListenerError: Error, CustomStringConvertible {
    public var role: FCMListener.Role
    public var host: String
    public var port: Int
    public var reason: String

    /// What to change: the flag that moves the port, and for a low port the right to bind it.
    public var remedy: String {
        let flag = role == .own ? "--fcm-port" : "--fcm-https-port"
        var text = "\(flag) (0 picks a free port)"
        if port > 0 && port < 1024 {
            text += ", or give this binary the right to bind low ports (run as root, or `setcap cap_net_bind_service=+ep`)"
        }
        return text
    }

    public var description: String {
        "\(role.rawValue) cannot listen on \(host):\(port): \(reason); change \(remedy)"
    }
}

/// The certificate chain and key an FCM listener presents.
public struct FCMIdentity: Sendable {
    /// PEM.
    public var certificateChainPEM: String
    /// PEM.
    public var privateKeyPEM: String
    /// The CA (PEM file) senders trust it with.
    public var certificateAuthorityPath: String

    /// An identity.
    public init(certificateChainPEM: String, privateKeyPEM: String, certificateAuthorityPath: String) {
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
        self.certificateAuthorityPath = certificateAuthorityPath
    }

    /// Google's names the front door answers for.
    public static let googleNames = ["fcm.googleapis.com", "oauth2.googleapis.com", "iid.googleapis.com"]
}
