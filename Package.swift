// swift-tools-version:6.2
// MockAPNs: a local stand-in for Apple Push Notification service, plus a client and test kit.
// Module map and rules: CONTRIBUTING.md ("How the code is laid out", "Numbers from the wire"). Arrows in comments point at allowed imports.
import PackageDescription

/// Every first-party target: Swift 6 language mode (the tools version's default) and warnings as errors.
let strict: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "MockAPNs",
    platforms: [.macOS(.v15)],
    // What a user's package depends on: the test kit, the sender library and the command line. Every other module is
    // an implementation part of these, and what a user needs of it comes through them (the model with the client; the
    // simulator's value types, the fault, device and record values and the relay's configuration with the kit, by
    // name: Sources/APNsTesting/Exports/ReExports.swift). FuzzHarness is here only for the package in Fuzz/.
    products: [
        // A sender's XCTest / Swift Testing suites: the in-process mock, assertions, faults, APNsClient.
        .library(name: "APNsTesting", targets: ["APNsTesting"]),
        // The sender library: the client and the model it re-exports (push types, reasons, `JSONValue`).
        .library(name: "APNsClient", targets: ["APNsClient"]),
        .executable(name: "mockapns", targets: ["MockAPNsTool"]),
        // The fuzz targets' logic, for the libFuzzer package in Fuzz/ (a separate package, so fuzz executables and
        // their sanitizer flags stay out of this build); not an API for senders.
        .library(name: "FuzzHarness", targets: ["FuzzHarness"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // Plain HTTP/1.1 APNs endpoint (MockAPNsHTTP1): NIOCore, NIOPosix, NIOHTTP1 only.
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        // --- control plane (MockAPNsControl) ---
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0", traits: []),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        // Imported by the control plane directly (it came with Hummingbird before; now declared).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        // --- end control plane ---
        // --- shared store (MockAPNsPostgres, linked by the command line, MockAPNsCLI, only) ---
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        // --- webhooks (MockAPNsWebhooks, linked by the command line, MockAPNsCLI, only) ---
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // --- the FCM front door (MockAPNsFCM): TLS with ALPN h2 and http/1.1 on one port, as Google serves ---
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
    ],
    targets: [
        // C libraries, found through pkg-config; shim.h wraps the macros Swift cannot import.
        .systemLibrary(
            name: "CNghttp2",
            pkgConfig: "libnghttp2",
            providers: [.apt(["libnghttp2-dev"]), .brew(["libnghttp2"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),

        // What every module may share and none owns: `Locked`, the one lock (a pthread mutex, visible to ThreadSanitizer),
        // `ExponentialBackoff`, `SplitMix64` and `DecimalDigits`. No dependencies.
        .target(name: "Support", swiftSettings: strict),
        // What APNs is: pure Swift, no C, no networking.
        // The one HTTP header field type, shared by the transport and the model (pure Swift, no dependency).
        .target(name: "HTTPFields", swiftSettings: strict),
        // JSON as APNs payloads and recordings need it: a parser that keeps key order, integers and fractions apart, a
        // yes/no validator, an encoder and string escaping; and the base64 records and JWTs carry (pure Swift).
        .target(name: "JSON", swiftSettings: strict),
        .target(name: "APNsModel", dependencies: ["HTTPFields", "JSON", "Support"], swiftSettings: strict),
        // What FCM (HTTP v1) is, as APNsModel is what APNs is: the message schema and Google's checks, errors in Google's
        // shape, registration tokens, topics and conditions, the OAuth grant's claims, and the translation of an iOS
        // message into the APNs request FCM sends and of APNs's answer back (docs/fcm-rules.md). Pure Swift.
        // → JSON, HTTPFields, Support (no APNs rule: those stay in APNsModel)
        .target(name: "FCMModel", dependencies: ["JSON", "HTTPFields", "Support"], swiftSettings: strict),
        // What an iPhone does with an accepted push, on top of the rules: the delivery simulator, the virtual devices
        // (screen, timeline, store-and-forward) and the payload linter (pure Swift). → APNsModel, JSON
        .target(name: "DeviceSimulation", dependencies: ["APNsModel", "JSON"], swiftSettings: strict),
        // ES256, JWT, .p8 keys, APNs client certificates, and RSA with RS256 (a Google service account's key and its OAuth
        // grants, for MockAPNsFCM) (OpenSSL 3). → COpenSSL, JSON
        .target(name: "APNsCrypto", dependencies: ["COpenSSL", "JSON"], swiftSettings: strict),
        // HTTP/2 over nghttp2 + OpenSSL: one connection core, driven by a channel on SwiftNIO's loops (server and
        // client) or in memory; knows nothing of APNs. NIO moves raw bytes; TLS and HTTP/2 stay in the core.
        // → HTTPFields, CNghttp2, COpenSSL, Support, NIOCore, NIOPosix
        .target(
            name: "HTTP2",
            dependencies: ["HTTPFields", "CNghttp2", "COpenSSL", "Support",
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio")],
            swiftSettings: strict
        ),
        // The mock, whatever carries its requests: `Mock` (built from a `MockConfiguration`) owns the pipeline, auth,
        // devices, faults, channels, its recorder, and the shared-state and relay interfaces. No transport, no C of
        // its own. Re-exports MockAPNsRecording. → MockAPNsRecording, APNsCrypto, APNsModel, DeviceSimulation, Support
        // The records: `RecordedRequest` and its JSON line, the `Recorder` (memory ring, record file, store writer,
        // live feed), reading, following, searching and expecting records, and the record stores. What only reads
        // records (the CLI's inspection, the control plane's record routes, the webhooks) needs nothing more.
        // → APNsModel, DeviceSimulation (lint findings), JSON, Support
        .target(
            name: "MockAPNsRecording",
            dependencies: ["APNsModel", "DeviceSimulation", "JSON", "Support"],
            swiftSettings: strict
        ),
        .target(
            name: "MockAPNs",
            dependencies: [
                "MockAPNsRecording", "APNsCrypto", "APNsModel", "DeviceSimulation", "JSON", "Support",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"), .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // The mock's HTTP/2 endpoint: `MockAPNsServer` serves a `Mock` (its listener settings, TLS identity and the
        // adapter from the HTTP2 transport's requests to the mock's pipeline), beside MockAPNsHTTP1.
        // → MockAPNs, HTTP2, APNsCrypto, APNsModel, NIOPosix (the shared loops it runs on by default), NIOTLS (the server
        // name of a ClientHello, on a port it shares with the FCM front door)
        .target(
            name: "MockAPNsHTTP2",
            dependencies: [
                "MockAPNs", "HTTP2", "APNsCrypto", "APNsModel", "Support",
                .product(name: "Logging", package: "swift-log"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // The plain HTTP/1.1 APNs endpoint on SwiftNIO's HTTP/1.1 pipeline (no router), through the one Pipeline; light
        // enough for the test kit. → MockAPNs, APNsModel, Support, NIOCore, NIOPosix, NIOHTTP1
        .target(
            name: "MockAPNsHTTP1",
            dependencies: [
                "MockAPNs", "APNsModel", "Support",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // The HTTP/1.1 handler in an EmbeddedChannel (unit tier); the listener on sockets with real peers (wire tier).
        .testTarget(
            name: "MockAPNsHTTP1Tests",
            dependencies: ["MockAPNsHTTP1", "MockAPNs", "APNsModel", "MockTestSupport",
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOEmbedded", package: "swift-nio"),
                           .product(name: "NIOHTTP1", package: "swift-nio")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MockAPNsHTTP1WireTests",
            dependencies: ["MockAPNsHTTP1", "MockAPNs", "APNsModel", "TestSupport"],
            swiftSettings: strict
        ),
        // The FCM front door (`serve --fcm`): Google's names (FCM HTTP v1, the OAuth token exchange, IID topic
        // management) over NIOSSL with ALPN on one port: h2 on the HTTP2 core, http/1.1 on SwiftNIO's HTTP/1.1
        // server; the projects, service accounts, registrations and topics; each iOS message translated (FCMModel)
        // into the APNs request FCM sends and run through the same `Mock`; the FCM records. → FCMModel, MockAPNs,
        // MockAPNsHTTP2 (the private CA), HTTP2, APNsCrypto (RS256, ES256), APNsModel, NIOSSL, NIOHTTP1
        .target(
            name: "MockAPNsFCM",
            dependencies: [
                "FCMModel", "MockAPNs", "MockAPNsRecording", "MockAPNsHTTP2", "APNsCrypto", "APNsModel", "JSON", "HTTPFields", "Support",
                "HTTP2",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // The sender library: pooled HTTP/2 connections, provider tokens, typed notifications, retries.
        // → HTTP2, APNsCrypto, APNsModel, Support (never MockAPNs)
        .target(
            name: "APNsClient",
            dependencies: [
                "HTTP2", "APNsCrypto", "APNsModel", "Support",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "APNsClientTests",
            dependencies: ["MockAPNsRecording", "APNsClient", "MockAPNs", "APNsModel", "APNsCrypto", "HTTP2", "TestSupport"],
            swiftSettings: strict
        ),
        // The relay (`serve --relay URL`, `APNsMockOptions.relay`): accepted device pushes sent on to an upstream APNs
        // through APNsClient, its answer returned to the sender; no ArgumentParser, no command line. → MockAPNs, APNsClient,
        // APNsModel, APNsCrypto (checks keys and certificates at start), HTTP2 (the forwarding clients' event loop), Support
        .target(
            name: "MockAPNsRelay",
            dependencies: ["MockAPNs", "APNsClient", "APNsModel", "APNsCrypto", "HTTP2", "Support"],
            swiftSettings: strict
        ),
        // The relay's configuration checks (unit tier); relaying to a listening mock (wire tier).
        .testTarget(
            name: "MockAPNsRelayTests",
            dependencies: ["MockAPNsRelay", "MockAPNs", "APNsClient", "APNsModel", "MockTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MockAPNsRelayWireTests",
            dependencies: ["MockAPNsRelay", "MockAPNs", "APNsClient", "APNsModel", "TestSupport"],
            swiftSettings: strict
        ),
        // What a sender's XCTest / Swift Testing suite imports: the in-process mock fixture and assertions, and a mock
        // that relays upstream; re-exports the client, the model, MockAPNs' fault, device and record values and
        // MockAPNsRelay's configuration values only.
        // → MockAPNs, MockAPNsHTTP2, MockAPNsHTTP1, MockAPNsRelay, DeviceSimulation, APNsModel, APNsClient (never the
        // control plane)
        .target(
            name: "APNsTesting",
            dependencies: ["DeviceSimulation", "MockAPNsRecording", "MockAPNs", "MockAPNsHTTP2", "MockAPNsHTTP1", "MockAPNsRelay", "APNsModel", "APNsClient",
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "APNsTestingTests",
            // HTTP2 + APNsCrypto: a raw sender, so the fixture's tests do not lean on the client they help test; NIO's
            // HTTP/1.1 client for APNSwift's request shape against the HTTP/1.1 listener.
            dependencies: [
                "APNsTesting", "MockAPNs", "APNsModel", "APNsClient", "HTTP2", "APNsCrypto", "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // --- control plane (MockAPNsControl) ---
        // HTTP/1.1 JSON control API, live stream, Prometheus /metrics and the dashboard, over a `Mock` (no APNs
        // transport), and the FCM front door's routes (/api/v1/fcm/…). → MockAPNs, MockAPNsFCM, APNsModel, APNsCrypto,
        // DeviceSimulation, Support, Hummingbird, Prometheus
        .target(
            name: "MockAPNsControl",
            dependencies: [
                "MockAPNsRecording", "MockAPNs", "MockAPNsFCM", "APNsModel", "APNsCrypto", "DeviceSimulation", "JSON", "Support",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The web dashboard's files, compiled in as byte arrays (PackageResources.<name>): no Bundle at run time.
            resources: [
                .embedInCode("Dashboard/Assets/index.html"), .embedInCode("Dashboard/Assets/app.css"),
                .embedInCode("Dashboard/Assets/app.js"), .embedInCode("Dashboard/Assets/render.js"),
                .embedInCode("Dashboard/Assets/devices.js"),
                .embedInCode("OpenAPI/openapi.json"),
            ],
            swiftSettings: strict
        ),
        // The control plane's routes through HummingbirdTesting's router client (unit tier); on a socket, with curl,
        // browsers and the listener's lifecycle (wire tier).
        .testTarget(
            name: "MockAPNsControlTests",
            dependencies: ["MockAPNsControl", "MockAPNs", "APNsModel", "MockTestSupport",
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "HummingbirdTesting", package: "hummingbird"),
                           .product(name: "NIOCore", package: "swift-nio")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MockAPNsControlWireTests",
            dependencies: ["MockAPNsControl", "MockAPNs", "APNsModel", "TestSupport"],
            swiftSettings: strict
        ),
        // Drives the built `mockapns` binary (Inspect*: list/show/tail/export/stats/expect/token on recordings).
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["MockAPNs", "MockAPNsHTTP2", "MockAPNsControl", "APNsModel", "APNsCrypto", "PeerSupport", "TestSupport", "PostgresSupport"],
            swiftSettings: strict
        ),
        // --- end control plane ---
        // The shared record store on PostgreSQL (`serve --store postgres://…`): schema, migrations, batched writes,
        // queries. The only module with SQL. → MockAPNs, APNsModel, PostgresNIO. Linked by MockAPNsCLI (the `mockapns`
        // command line) only, never by APNsTesting, so a sender's test suite builds no database driver.
        .target(
            name: "MockAPNsPostgres",
            dependencies: [
                "MockAPNs", "APNsModel", "Support",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Starting a throwaway PostgreSQL cluster (initdb, pg_ctl) for the store's tests: Foundation only.
        .target(name: "PostgresSupport", dependencies: ["PeerSupport"], path: "Tests/PostgresSupport", swiftSettings: strict),
        .testTarget(
            name: "PostgresStoreTests",
            dependencies: ["MockAPNsRecording", "MockAPNsPostgres", "MockAPNsFCM", "JSON", "MockAPNs", "APNsModel", "Support", "PeerSupport", "PostgresSupport", "TestSupport",
                           .product(name: "PostgresNIO", package: "postgres-nio")],
            swiftSettings: strict
        ),
        // Webhooks (`serve --webhook URL`): recorded pushes POSTed to receivers through AsyncHTTPClient, linked by
        // MockAPNsCLI (the `mockapns` command line) only (the test kit builds no HTTP client).
        .target(
            name: "MockAPNsWebhooks",
            dependencies: [
                "MockAPNsRecording", "APNsModel", "APNsCrypto", "JSON", "Support",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MockAPNsWebhooksTests",
            dependencies: ["MockAPNsWebhooks", "MockAPNs", "APNsModel", "APNsCrypto", "TestSupport"],
            swiftSettings: strict
        ),
        // The `mockapns` command line: every subcommand, its options, record reading, output formats, send, and the
        // relay, store, webhook and FCM options; only the root command is public. → MockAPNs, MockAPNsHTTP2,
        // MockAPNsControl, MockAPNsHTTP1, MockAPNsPostgres, MockAPNsWebhooks, MockAPNsRelay, MockAPNsFCM, APNsModel,
        // APNsCrypto, APNsClient, HTTP2, Support, ArgumentParser, Logging, AsyncHTTPClient (the one outbound HTTP client:
        // the control plane's readers, webhooks), NIOCore, NIOPosix
        .target(
            name: "MockAPNsCLI",
            dependencies: [
                "MockAPNsRecording", "MockAPNs", "MockAPNsHTTP2", "MockAPNsControl", "MockAPNsHTTP1", "MockAPNsPostgres", "MockAPNsWebhooks",
                "MockAPNsRelay", "MockAPNsFCM", "APNsModel", "JSON",
                "DeviceSimulation", "APNsCrypto", "APNsClient", "HTTP2",
                "Support",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"), .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // In-process tests of the command line: parsing, record files, checks, output formats, send and relay options.
        .testTarget(
            name: "MockAPNsCLITests",
            dependencies: ["Support", "MockAPNsCLI", "MockAPNs", "MockAPNsHTTP2", "MockAPNsRelay", "APNsModel", "APNsClient", "TestSupport",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strict
        ),
        // The `mockapns` executable (product `mockapns`): one file that runs MockAPNsCLI's root command. Its module is
        // not called `mockapns`: that and `MockAPNs` are one folder on a case-insensitive file system (macOS's
        // default; scripts/check-case-collisions.py). → MockAPNsCLI
        .executableTarget(name: "MockAPNsTool", dependencies: ["MockAPNsCLI"], swiftSettings: strict),

        // A trivial-handler HTTP/2 server for `make bench-transport` (measures HTTP2 alone).
        .executableTarget(name: "HTTP2BenchServer", dependencies: ["HTTP2"], path: "bench/HTTP2BenchServer", swiftSettings: strict),
        // A trivial plain-SwiftNIO HTTP/1.1 server for `make bench-http1`: the stand-in for APNSwift's test server.
        .executableTarget(
            name: "NIOHTTP1BenchServer",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "bench/NIOHTTP1BenchServer", swiftSettings: strict),

        // Running real peers (curl, nghttp, nghttpd, h2load, openssl, python) from tests: Foundation only, so the
        // transport's tests use it without depending on anything above HTTP2.
        .target(name: "PeerSupport", path: "Tests/PeerSupport", swiftSettings: strict),

        // Test support in three layers, so a suite links only what it tests. The model's: the conformance corpus
        // loader, device scenarios, the test credentials as facts, repository paths (no nghttp2, OpenSSL or NIO).
        .target(
            name: "ModelTestSupport",
            dependencies: ["APNsModel", "DeviceSimulation", "JSON", "PeerSupport"],
            path: "Tests/ModelTestSupport",
            swiftSettings: strict
        ),
        // The mock's: a mock without a listener, sample records, a well-formed token (no transport).
        .target(
            name: "MockTestSupport",
            dependencies: ["ModelTestSupport", "MockAPNs", "APNsModel", "APNsCrypto", "DeviceSimulation"],
            path: "Tests/MockTestSupport",
            swiftSettings: strict
        ),
        // The wire's: the mock on a socket (TestServer, Apple's names), an HTTP client; re-exports the two above.
        .target(
            name: "TestSupport",
            dependencies: ["MockTestSupport", "APNsModel", "APNsCrypto", "MockAPNs", "MockAPNsHTTP2", "PeerSupport"],
            path: "Tests/TestSupport",
            swiftSettings: strict
        ),

        .testTarget(name: "JSONTests", dependencies: ["JSON", "Support"], swiftSettings: strict),
        .testTarget(name: "APNsModelTests", dependencies: ["APNsModel", "JSON", "ModelTestSupport"], swiftSettings: strict),
        .testTarget(name: "DeviceSimulationTests", dependencies: ["DeviceSimulation", "APNsModel", "JSON", "ModelTestSupport"],
                    swiftSettings: strict),
        // The FCM front door: in memory (unit tier) and on its TLS listener with real peers (wire tier).
        .testTarget(name: "MockAPNsFCMTests", dependencies: ["MockAPNsFCM", "MockAPNsRecording", "FCMModel", "MockAPNs", "APNsCrypto", "JSON", "MockTestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "MockAPNsFCMWireTests", dependencies: ["MockAPNsFCM", "FCMModel", "MockAPNs", "MockAPNsHTTP2", "APNsCrypto", "JSON", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "FCMModelTests", dependencies: ["FCMModel", "JSON"], swiftSettings: strict),
        .testTarget(name: "APNsCryptoTests", dependencies: ["APNsCrypto"], swiftSettings: strict),
        // The HTTP/2 transport: in memory (embedded connections, the header builder, the loops; unit tier) and on
        // sockets against real peers and attacks (wire tier), with the support both share.
        .target(name: "HTTP2TestSupport", dependencies: ["HTTP2", "CNghttp2", "COpenSSL", "PeerSupport"], path: "Tests/HTTP2TestSupport",
                swiftSettings: strict),
        .testTarget(name: "HTTP2Tests", dependencies: ["HTTP2", "CNghttp2", "COpenSSL", "HTTP2TestSupport", "PeerSupport", "Support",
                                                       .product(name: "NIOCore", package: "swift-nio"),
                                                       .product(name: "NIOEmbedded", package: "swift-nio")],
                    swiftSettings: strict),
        .testTarget(name: "HTTP2WireTests", dependencies: ["HTTP2", "CNghttp2", "COpenSSL", "HTTP2TestSupport", "PeerSupport", "Support",
                                                           .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio")],
                    swiftSettings: strict),
        // The mock in memory (unit tier), and on a socket with real clients and the wire corpus (wire tier).
        .testTarget(
            name: "MockAPNsTests",
            dependencies: ["MockAPNsRecording", "MockAPNs", "APNsModel", "APNsCrypto", "Support", "MockTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MockAPNsWireTests",
            dependencies: ["MockAPNsRecording", "MockAPNs", "APNsModel", "APNsCrypto", "HTTP2", "Support", "TestSupport"],
            swiftSettings: strict
        ),

        // Fuzzing (Fuzz/README.md): each target's logic, and the replay of saved inputs through it in `make test`.
        .target(
            name: "FuzzHarness",
            dependencies: ["DeviceSimulation", "APNsModel", "APNsCrypto", "HTTP2", "MockAPNs", "MockAPNsHTTP2", .product(name: "Logging", package: "swift-log")],
            path: "Fuzz/Harness",
            swiftSettings: strict
        ),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzHarness"], swiftSettings: strict),

        // The example sender and its suites (Examples/OrderNotifier), built with everything else so `make test` compiles
        // the package once; Examples/OrderNotifier/Package.swift builds the same files as a package of their own (the
        // release workflow checks that a user's standalone package builds).
        .target(
            name: "OrderNotifier",
            dependencies: ["APNsClient", "APNsModel"],
            path: "Examples/OrderNotifier/Sources/OrderNotifier",
            swiftSettings: strict
        ),
        .testTarget(
            name: "OrderNotifierTests",
            dependencies: ["OrderNotifier", "APNsClient", "APNsTesting"],
            path: "Examples/OrderNotifier/Tests/OrderNotifierTests",
            swiftSettings: strict
        ),
        // Every Swift block of the documentation, as written by `scripts/doc-snippets.py swift --write` (committed;
        // `make test-docs` fails when a document and these files differ).
        .testTarget(
            name: "DocSnippetTests",
            dependencies: ["OrderNotifier", "APNsTesting"],   // what the README's Package.swift fragment names
            swiftSettings: strict
        ),
    ]
)
