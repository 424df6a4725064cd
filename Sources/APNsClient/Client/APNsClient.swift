import APNsModel
import Foundation
import HTTP2

/// Sends pushes to APNs over a pool of HTTP/2 connections.
///
/// ```swift
/// let client = try APNsClient(configuration: APNsClientConfiguration(
///     environment: .development, authentication: .token(privateKeyPEM: p8, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")))
/// let response = try await client.send(.alert(bundleID: "com.example.app", body: "Hello"), deviceToken: hexToken)
/// await client.shutdown()
/// ```
///
/// Every push gets an `apns-id` (a random UUID unless the notification has one) that stays the same across
/// retries. Throttling and server errors (429, 500, 503) and connections lost mid-request are retried with
/// exponential back-off and jitter, up to `retryPolicy.maxAttempts`; rejections APNs says never to retry are not.
/// Opening connections is the pool's job, not the push's: when the endpoint cannot be reached the pool retries
/// with one shared back-off (100 ms doubling to 30 s), and a push that gets no connection within `requestTimeout`
/// fails once with `.unreachable` (see `outage` for the state of the endpoint).
public final class APNsClient: Sendable {
    /// The configuration the client was made with.
    public let configuration: APNsClientConfiguration
    private let http2: HTTP2Client
    private let pool: ConnectionPool
    private let tokens: ProviderTokenCache?
    private let gate = InFlightGate()

    /// Validates the configuration and prepares the pool; connections open on first use. With `loops`, the
    /// connections run on those event loops (shared with other clients, not shut down by ``shutdown()``) instead of
    /// loops of the client's own: many clients, no thread each.
    public init(configuration: APNsClientConfiguration, loops: HTTP2ClientLoops? = nil) throws(APNsClientError) {
        self.configuration = configuration
        let address = try configuration.environment.address()
        var tls: TLSClientConfiguration?
        if address.usesTLS {
            var settings = TLSClientConfiguration(trustRoots: configuration.trustRootsPEM.map { PEMSource.string($0) })
            if case let .certificate(pem, key) = configuration.authentication {
                settings.certificateChain = .string(pem)
                settings.privateKey = .string(key)
            }
            tls = settings
        }
        switch configuration.authentication {
        case let .token(pem, keyID, teamID):
            tokens = try ProviderTokenCache(privateKeyPEM: pem, keyID: keyID, teamID: teamID)
        case .certificate, .perNotification:
            tokens = nil
        }
        var options = HTTP2ClientConfiguration()
        options.requestTimeout = configuration.requestTimeout
        options.connectTimeout = configuration.connectTimeout
        let connections = max(1, configuration.connections)
        let threads = configuration.eventLoopThreads
            ?? min(connections, max(1, ProcessInfo.processInfo.activeProcessorCount))
        if let loops {
            http2 = HTTP2Client(loops: loops, configuration: options)
        } else {
            http2 = HTTP2Client(threads: max(1, threads), configuration: options)
        }
        pool = ConnectionPool(client: http2, address: address, tls: tls, size: connections)
    }

    /// Sends `notification` to the device with hex `deviceToken` and returns once APNs accepted it.
    ///
    /// Throws `.rejected` with APNs's reason (after retries, for retryable ones), `.timeout` when an attempt got
    /// no answer within `requestTimeout`, `.unreachable` when no connection could be opened within `requestTimeout`,
    /// `.connection` when connections were lost mid-request on every attempt, `.shutdown` after `shutdown()`.
    public func send(_ notification: some APNsNotificationRequest, deviceToken: String)
        async throws(APNsClientError) -> APNsResponse
    {
        guard gate.enter() else { throw .shutdown }
        defer { gate.leave() }
        let encoded = notification.encodedRequest()
        let apnsID = encoded.apnsID ?? APNsIDGenerator.next()
        // An apns-id differs on every push: marked (here and by the notification) so HPACK sends it without churning
        // its table. The notification's fields are the transport's (one field type): no copy.
        var headers = encoded.headers
        if encoded.apnsID == nil { headers.append(HTTPHeaderField(name: "apns-id", value: apnsID, valueIsUnique: true)) }
        let path = "/3/device/" + deviceToken
        let policy = configuration.retryPolicy
        var attempt = 0
        while true {
            attempt += 1
            switch await self.attempt(path: path, headers: headers, body: encoded.body, apnsID: apnsID, number: attempt) {
            case let .accepted(response):
                return response
            case let .failed(error, retry):
                guard retry, attempt < policy.maxAttempts else { throw error }
                do {
                    try await Task.sleep(for: policy.delay(afterAttempt: attempt))
                } catch {
                    throw .cancelled
                }
            }
        }
    }

    /// Lets sends in progress finish (retries included), refuses new ones, then closes every connection.
    public func shutdown() async {
        await gate.close()
        await pool.close()
        await http2.shutdown()
    }

    /// How many pool connections are open right now.
    public var openConnections: Int { pool.openConnections }

    /// The endpoint's outage in progress, if the last connection attempts failed: the cause, how many attempts and
    /// for how long. Nil once a connection opens. A sender uses it to stop a run whose endpoint stays away
    /// (`mockapns send --give-up-after`) instead of failing its pushes one timeout at a time.
    public var outage: APNsConnectFailure? { pool.outage }

    /// The executor to run sending tasks on when the client has a single event-loop thread
    /// (`eventLoopThreads: 1`): its loop. A task that prefers it (`Task(executorPreference:)`,
    /// `TaskGroup.addTask(executorPreference:)`) hands each request to its connection and gets the answer without
    /// a thread hop, where on the global executor every send costs two wake-ups. Nil with several loops (the
    /// connections are spread over them). Such a task shares the loop thread with the connections: it must not block.
    public var taskExecutor: (any TaskExecutor)? { http2.loops.soleExecutor }

    private func attempt(path: String, headers: [HTTPHeaderField], body: [UInt8], apnsID: String, number: Int) async
        -> AttemptOutcome
    {
        // One attempt may take `requestTimeout` in all: waiting for a connection, then for the answer.
        let deadline = ContinuousClock.now + configuration.requestTimeout
        let connection: HTTP2ClientConnection
        do {
            connection = try await pool.lease(deadline: deadline)
        } catch {
            // The pool already retried the connection with its own back-off: another attempt would only wait again.
            return .failed(error, retry: false)
        }
        var fields = headers
        if let tokens {
            do {
                fields.insert(HTTPHeaderField(name: "authorization", value: try tokens.authorization()), at: 0)
            } catch {
                return .failed(error, retry: false)
            }
        }
        let remaining = deadline - ContinuousClock.now
        let request = HTTP2ClientRequest(method: "POST", path: path, headers: fields, body: body,
                                         timeout: remaining > .milliseconds(1) ? remaining : .milliseconds(1))
        let response: HTTP2ClientResponse
        do {
            response = try await connection.send(request)
        } catch {
            let failure = TransportFailure(error)
            if failure.discardConnection { pool.discard(connection) }
            return .failed(failure.error, retry: failure.retry)
        }
        let echoedID = response.header("apns-id") ?? apnsID
        if response.status == 200 {
            return .accepted(APNsResponse(apnsID: echoedID, apnsUniqueID: response.header("apns-unique-id"), attempts: number))
        }
        return rejection(response, apnsID: echoedID, connection: connection)
    }

    private func rejection(_ response: HTTP2ClientResponse, apnsID: String, connection: HTTP2ClientConnection)
        -> AttemptOutcome
    {
        let reason: APNsErrorReason
        var timestamp: Int64?
        if let decoded = APNsReason.decodeResponseBody(response.body) {
            reason = .known(decoded.reason)
            timestamp = decoded.timestampMilliseconds
        } else if let value = try? JSONValue.parse(response.body), let text = value["reason"]?.stringValue {
            reason = .unknown(text)
            timestamp = value["timestamp"]?.integerValue
        } else {
            reason = .unknown("")
        }
        let error = APNsClientError.rejected(status: response.status, reason: reason, timestamp: timestamp, apnsID: apnsID)
        switch reason.reason {
        case .expiredProviderToken?:
            // A fresh token can fix it, but only if the current one is old enough to replace (20-minute rule).
            let refreshed = (try? tokens?.refreshAfterRejection()) ?? false
            return .failed(error, retry: refreshed)
        case .idleTimeout?, .shutdown?:
            pool.discard(connection)
            return .failed(error, retry: true)
        default:
            return .failed(error, retry: error.isRetryable)
        }
    }
}
