import ArgumentParser
import MockAPNs
import XCTest
@testable import MockAPNsCLI
import TestSupport
import Support

/// Argument parsing of each subcommand, in process, through the root command as the executable runs it: what the
/// flags become, and the message and exit status (usage errors exit 2) a user gets for flags that do not fit.
final class CommandParsingTests: LeakCheckedTestCase {
    /// The subcommand `arguments` parse to, as `T`.
    private func parse<T: ParsableCommand>(_ arguments: [String], as type: T.Type,
                                           file: StaticString = #filePath, line: UInt = #line) throws -> T {
        let command = try MockAPNsCommand.parseAsRoot(arguments)
        return try XCTUnwrap(command as? T, "\(arguments) parsed to \(Swift.type(of: command))", file: file, line: line)
    }

    /// The error message `arguments` are refused with; fails unless the refusal is a usage error (exit 2).
    private func refusal(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            let command = try MockAPNsCommand.parseAsRoot(arguments)
            XCTFail("\(arguments) parsed to \(type(of: command))", file: file, line: line)
            return nil
        } catch {
            XCTAssertEqual(MockAPNsCommand.exitCode(for: error), .validationFailure, "\(arguments) is a usage error",
                           file: file, line: line)
            return MockAPNsCommand.message(for: error)
        }
    }

    func testRootCommandIsMockapnsWithEverySubcommand() {
        XCTAssertEqual(MockAPNsCommand.configuration.commandName, "mockapns")
        XCTAssertEqual(MockAPNsCommand.configuration.version, MockAPNsVersion.current)
        XCTAssertEqual(MockAPNsCommand.configuration.subcommands.map { $0._commandName }, [
            "serve", "lint", "simulate", "send", "certs", "wait", "health", "store",
            "list", "show", "tail", "export", "stats", "expect", "device", "token", "fcm",
        ])
    }

    func testListTakesASourceFiltersAndJSON() throws {
        let list = try parse(["list", "--file", "rec.jsonl", "--token", "ABCD", "--topic", "com.example.app", "--push-type", "alert",
                              "--status", "410", "--reason", "Unregistered", "--since", "3", "--limit", "2", "--json"], as: ListCommand.self)
        XCTAssertEqual(list.filters.filter, RecordFilter(token: "ABCD", topic: "com.example.app", pushType: "alert", status: 410,
                                                         reason: "Unregistered", since: 3, limit: 2))
        XCTAssertTrue(list.output.json)
        guard case .file(let file) = try list.source.resolve() else { return XCTFail("not a file source") }
        XCTAssertEqual(file.path, "rec.jsonl")
    }

    func testListRefusesANegativeLimitAndAnUnknownFlag() {
        XCTAssertEqual(refusal(["list", "--limit=-1"]), "--limit must be 0 or more.")
        XCTAssertEqual(refusal(["list", "--limit", "-1"]), "Missing value for '--limit <n>'", "-1 alone reads as a flag")
        XCTAssertEqual(refusal(["list", "--bogus"]), "Unknown option '--bogus'")
        XCTAssertEqual(refusal(["list", "--status", "ok"]), "The value 'ok' is invalid for '--status <code>'")
    }

    func testSourcesAreOneOfServerReadyFileFileOrStore() throws {
        let two = try parse(["stats", "--server", "http://127.0.0.1:2198", "--file", "rec.jsonl"], as: StatsCommand.self)
        XCTAssertThrowsError(try two.source.resolve()) { error in
            XCTAssertEqual((error as? InspectError)?.description, "Give at most one of --server, --ready-file, --file and --store.")
        }
        let bad = try parse(["stats", "--server", "ftp://host"], as: StatsCommand.self)
        XCTAssertThrowsError(try bad.source.resolve()) { error in
            XCTAssertEqual((error as? InspectError)?.description,
                           "--server needs an http:// URL such as http://127.0.0.1:2198; got 'ftp://host'.")
        }
        let live = try parse(["stats", "--server", "http://127.0.0.1:9", "--control-token", "s3cret"], as: StatsCommand.self)
        XCTAssertEqual(try live.source.resolve().label, "http://127.0.0.1:9")
        let namespace = try parse(["stats", "--file", "rec.jsonl", "--store-namespace", "a"], as: StatsCommand.self)
        XCTAssertNoThrow(try namespace.source.resolve(), "--file wins; the namespace is only read with --store")
        let lonely = try parse(["stats", "--server", "http://127.0.0.1:9", "--store-namespace", "a"], as: StatsCommand.self)
        XCTAssertThrowsError(try lonely.source.resolve()) { error in
            XCTAssertEqual((error as? InspectError)?.description, "--store-namespace goes with --store.")
        }
    }

    func testAReadyFileWithoutControlURLIsUnreadable() throws {
        let path = try writeTestFile("ready.json", #"{"apns_url":"https://127.0.0.1:2197"}"#)
        XCTAssertThrowsError(try SourceOptions.controlURL(fromReadyFile: path)) { error in
            XCTAssertEqual((error as? InspectError)?.description,
                           "Cannot read \(path): it has no \"control_url\" string (was the control plane disabled?).")
        }
        let good = try writeTestFile("ready.json", #"{"control_url":"http://127.0.0.1:4242"}"#)
        XCTAssertEqual(try SourceOptions.controlURL(fromReadyFile: good).absoluteString, "http://127.0.0.1:4242")
    }

    func testShowNeedsAnIDAndExportAKnownFormat() throws {
        XCTAssertEqual(try parse(["show", "12", "--json"], as: ShowCommand.self).id, "12")
        XCTAssertEqual(refusal(["show"]), "Missing expected argument '<seq|apns-id>'")
        let export = try parse(["export", "--format", "har", "-o", "out.har", "--base-url", "https://h:1"], as: ExportCommand.self)
        XCTAssertEqual(export.format, .har)
        XCTAssertEqual(export.output, "out.har")
        XCTAssertEqual(export.baseURL, "https://h:1")
        XCTAssertEqual(try parse(["export"], as: ExportCommand.self).format, .jsonl)
        XCTAssertEqual(refusal(["export", "--format", "csv"]),
                       "The value 'csv' is invalid for '--format <format>'. Please provide one of 'jsonl' and 'har'.")
    }

    func testExpectCollectsConditionsAndAQuantity() throws {
        let expect = try parse(["expect", "--topic", "t", "--where", "aps.badge=1", "--where", "sync=orders", "--count", "2",
                                "--timeout", "1.5"], as: ExpectCommand.self)
        XCTAssertEqual(expect.conditions, ["aps.badge=1", "sync=orders"])
        XCTAssertEqual(expect.count, 2)
        XCTAssertEqual(expect.timeout, 1.5)
        XCTAssertFalse(try parse(["expect"], as: ExpectCommand.self).none)
    }

    func testTailDeviceAndTokenFlags() throws {
        XCTAssertTrue(try parse(["tail", "--file", "rec.jsonl", "--no-existing"], as: TailCommand.self).skipExisting)
        let device = try parse(["device", "abcd", "--at", "2027-01-15T08:00:00Z"], as: DeviceCommand.self)
        XCTAssertEqual(device.token, "abcd")
        XCTAssertEqual(device.at, "2027-01-15T08:00:00Z")
        XCTAssertEqual(refusal(["device"]), "Missing expected argument '<token>'")
        let token = try parse(["token", "--key-file", "T:K:/k.p8", "--issued-at", "1700000000"], as: TokenCommand.self)
        XCTAssertEqual(token.keyFile, "T:K:/k.p8")
        XCTAssertEqual(token.issuedAt, 1_700_000_000)
    }

    func testSendDefaults() throws {
        let send = try parse(["send", "payload.json", "--token", "abcd"], as: SendCommand.self)
        XCTAssertEqual(send.payload, "payload.json")
        XCTAssertEqual(send.count, 1)
        XCTAssertEqual(send.concurrency, 100)
        XCTAssertEqual(send.connections, 1)
        XCTAssertEqual(send.timeout, 30)
        XCTAssertEqual(send.giveUpAfter, 10)
        XCTAssertEqual(send.url, [])
        XCTAssertEqual(refusal(["send", "--token", "abcd"]), "Missing expected argument '<payload>'")
        XCTAssertEqual(refusal(["send", "p.json", "--count", "many"]), "The value 'many' is invalid for '--count <count>'")
    }

    func testServeGathersItsOptionGroups() throws {
        let serve = try parse(["serve", "--port", "0", "--h2c", "--record", "rec.jsonl", "--control-port", "0", "--no-dashboard",
                               "--relay", "https://api.sandbox.push.apple.com", "--relay-rejected",
                               "--webhook", "http://127.0.0.1:9/hook", "--webhook-attempts", "3",
                               "--key-file", "A:B:/a.p8", "--key-file", "C:D:/c.p8"], as: ServeCommand.self)
        XCTAssertEqual(serve.port, 0)
        XCTAssertTrue(serve.h2c)
        XCTAssertEqual(serve.record, "rec.jsonl")
        XCTAssertEqual(serve.keyFiles, ["A:B:/a.p8", "C:D:/c.p8"])
        XCTAssertEqual(serve.control.controlPort, 0)
        XCTAssertTrue(serve.control.noDashboard)
        XCTAssertEqual(serve.relayOptions.relayURL, "https://api.sandbox.push.apple.com")
        XCTAssertTrue(serve.relayOptions.relayRejected)
        XCTAssertEqual(serve.webhookOptions.webhooks, ["http://127.0.0.1:9/hook"])
        XCTAssertEqual(serve.webhookOptions.attempts, 3)
        XCTAssertEqual(refusal(["serve", "--port", "http"]), "The value 'http' is invalid for '--port <port>'")
    }

    func testControlPlaneOptionsMakeTheControlConfiguration() throws {
        let environment = EnvironmentOptions()
        let configuration = try XCTUnwrap(try ControlPlaneOptions.parse(["--control-host", "0.0.0.0", "--control-token", "t", "--no-dashboard"])
            .controlConfiguration(environment: environment))
        XCTAssertEqual(configuration.host, "0.0.0.0")
        XCTAssertEqual(configuration.port, 2198)
        XCTAssertEqual(configuration.controlToken, "t")
        XCTAssertFalse(configuration.dashboard)
        XCTAssertEqual(try ControlPlaneOptions.parse([]).controlConfiguration(environment: environment, freePort: true)?.port, 0)
        XCTAssertNil(try ControlPlaneOptions.parse(["--no-control"]).controlConfiguration(environment: environment))
        XCTAssertThrowsError(try ControlPlaneOptions.parse(["--control-port", "70000"]).controlConfiguration(environment: environment)) { error in
            XCTAssertEqual((error as? ValidationError)?.message, "--control-port must be between 0 and 65535, got 70000")
        }
        XCTAssertEqual(ControlPlaneOptions.url(host: "::1", port: 2198), "http://[::1]:2198")
        XCTAssertEqual(ControlPlaneOptions.url(host: "127.0.0.1", port: 2198), "http://127.0.0.1:2198")
    }

    func testWebhookOptionsMakeOneTargetPerURLAndNameTheFlagToFix() throws {
        let environment = EnvironmentOptions()
        let targets = try WebhookOptions.parse(["--webhook", "http://127.0.0.1:9/a", "--webhook", "https://example.com/b",
                                                "--webhook-match", "topic:com.example.app", "--webhook-timeout", "2.5",
                                                "--webhook-queue", "10", "--webhook-attempts", "2"]).targets(environment: environment)
        XCTAssertEqual(targets.map(\.url), ["http://127.0.0.1:9/a", "https://example.com/b"])
        XCTAssertEqual(targets.map(\.timeout), [.milliseconds(2_500), .milliseconds(2_500)])
        XCTAssertEqual(targets.map(\.queueLimit), [10, 10])
        XCTAssertEqual(targets.map(\.maxAttempts), [2, 2])
        XCTAssertEqual(targets[0].match, targets[1].match, "one --webhook-match is for every webhook")
        XCTAssertEqual(try WebhookOptions.parse([]).targets(environment: environment).count, 0)
        let cases: [([String], String)] = [
            (["--webhook-secret", "s"],
             "--webhook-match, --webhook-secret, --webhook-timeout, --webhook-queue and --webhook-attempts go with --webhook URL"),
            (["--webhook", "http://a/1", "--webhook", "http://a/2", "--webhook-match", "x", "--webhook-match", "y", "--webhook-match", "z"],
             "--webhook-match: give it once (for every --webhook) or once per --webhook (2), not 3 times"),
            (["--webhook", "http://a/1", "--webhook-timeout", "0"], "--webhook-timeout must be more than 0 seconds"),
            (["--webhook", "http://a/1", "--webhook-queue", "0"], "--webhook-queue must be at least 1"),
            (["--webhook", "http://a/1", "--webhook-attempts", "0"], "--webhook-attempts must be at least 1"),
        ]
        for (arguments, expected) in cases {
            XCTAssertThrowsError(try WebhookOptions.parse(arguments).targets(environment: environment), "\(arguments)") { error in
                XCTAssertEqual((error as? ValidationError)?.message, expected, "\(arguments)")
            }
        }
    }

    func testCertsWaitAndHealthValidateTheirFlags() throws {
        XCTAssertEqual(refusal(["certs"]), "say what to do: --out DIR, --install or --uninstall")
        XCTAssertEqual(refusal(["certs", "--install", "--uninstall"]), "--install and --uninstall are exclusive")
        XCTAssertEqual(try parse(["certs", "--out", "dir"], as: CertsCommand.self).out, "dir")
        XCTAssertEqual(refusal(["wait"]), "Missing expected argument '--ready-file <path>'")
        XCTAssertEqual(refusal(["wait", "--ready-file", "r.json", "--timeout", "0"]), "--timeout must be between 0 and 86400 seconds, got 0.0")
        XCTAssertEqual(try parse(["wait", "--ready-file", "r.json"], as: WaitCommand.self).timeout, 30)
        XCTAssertEqual(refusal(["health", "--server", "http://a", "--ready-file", "r.json"]), "give --server or --ready-file, not both")
        XCTAssertEqual(refusal(["health", "--timeout", "4000"]), "--timeout must be between 0 and 3600 seconds, got 4000.0")
    }

    func testLintSimulateAndStoreSubcommandsParse() throws {
        let lint = try parse(["lint", "p.json", "--push-type", "background", "--priority", "5"], as: LintCommand.self)
        XCTAssertEqual(lint.headers.pushType, "background")
        XCTAssertEqual(lint.headers.priority, "5")
        let simulate = try parse(["simulate", "p.apns", "--state", "background", "--entitlement", "timeSensitive", "--no-delegate"],
                                 as: SimulateCommand.self)
        XCTAssertEqual(simulate.state, "background")
        XCTAssertEqual(simulate.entitlement, ["timeSensitive"])
        XCTAssertTrue(simulate.noDelegate)
        XCTAssertEqual(try parse(["store", "status", "--store", "postgres://u@h/db"], as: StoreStatusCommand.self).url.store,
                       "postgres://u@h/db")
        XCTAssertNoThrow(try parse(["store", "migrate"], as: StoreMigrateCommand.self))
    }

    func testAMistypedSubcommandGetsTheClosestNames() {
        let names = MockAPNsCommand.configuration.subcommands.map { $0._commandName } + ["help"]
        XCTAssertEqual(SubcommandSuggestion.message(for: "serv", names: names),
                       "unknown command 'serv'. Did you mean 'serve' or 'send'?\nCommands: " + names.joined(separator: ", ")
                           + ". See 'mockapns --help'.")
        XCTAssertTrue(SubcommandSuggestion.message(for: "lsit", names: names)?.hasPrefix("unknown command 'lsit'. Did you mean 'list'") == true)
        XCTAssertNil(SubcommandSuggestion.message(for: "serve", names: names), "a real command")
        XCTAssertNil(SubcommandSuggestion.message(for: "--version", names: names), "an option")
        XCTAssertNil(SubcommandSuggestion.message(for: "payload.json", names: names), "a file")
        XCTAssertEqual(SubcommandSuggestion.distance("lsit", "list"), 1, "a swap is one edit")
    }
}
