import APNsModel
import ModelTestSupport
import Foundation
import XCTest

/// Runs every `Fixtures/conformance` case through `RequestDecider` and lists every mismatch at once.
final class ConformanceCorpusTests: XCTestCase {
    func testEveryCaseMatchesTheModel() throws {
        let files = try ConformanceCase.all()
        XCTAssertGreaterThanOrEqual(files.count, 90, "the corpus should hold at least 90 cases")
        var failures: [String] = []
        for url in files {
            do {
                let c = try ConformanceCase(url: url)
                if let problem = try run(c) { failures.append("\(c.file): \(problem)  [\(c.name)]") }
            } catch {
                failures.append("\(url.lastPathComponent): cannot load: \(error)")
            }
        }
        XCTAssert(failures.isEmpty, "\(failures.count) of \(files.count) cases disagree with the model:\n"
                  + failures.joined(separator: "\n"))
    }

    func testFileNamesAreNumberedAndUnique() throws {
        let names = try ConformanceCase.all().map(\.lastPathComponent)
        var numbers = Set<String>()
        for name in names {
            let number = String(name.prefix(3))
            XCTAssert(name.range(of: #"^\d{3}-[a-z0-9-]+\.json$"#, options: .regularExpression) != nil, "bad name \(name)")
            XCTAssert(numbers.insert(number).inserted, "number \(number) used twice")
        }
    }

    func testCorpusCoversEveryModelReasonAndPushType() throws {
        var reasons = Set<String>()
        var acceptedTypes = Set<PushType>()
        for url in try ConformanceCase.all() {
            let c = try ConformanceCase(url: url)
            if let reason = c.expectedReason { reasons.insert(reason) }
            let request = try c.makeRequest(c.request, auth: c.auth)
            if case .accepted(let push) = try decide(c, request: request).verdict, case .device = push.route {
                acceptedTypes.insert(push.pushType)
            }
        }
        // Reasons the model itself can decide (the rest need server state: registry, channels, throttling).
        let serverOnly: Set<APNsReason> = [.expiredToken, .unregistered, .tooManyRequests, .internalServerError,
                                           .serviceUnavailable, .shutdown, .idleTimeout, .featureNotEnabled,
                                           .channelNotRegistered, .cannotCreateChannelConfig]
        for reason in APNsReason.allCases where !serverOnly.contains(reason) {
            XCTAssert(reasons.contains(reason.rawValue), "no conformance case expects \(reason.rawValue)")
        }
        XCTAssertEqual(acceptedTypes, Set(PushType.allCases), "every push type needs an accepted device case")
    }

    // MARK: Running a case

    private func run(_ c: ConformanceCase) throws -> String? {
        let request = try c.makeRequest(c.request, auth: c.auth)
        let (verdict, historyProblem) = try decide(c, request: request)
        if let historyProblem { return historyProblem }
        let status = ConformanceCase.wireStatus(verdict, request: request)
        let reason = verdict.reason?.rawValue
        if status != c.expectedStatus || reason != c.expectedReason {
            return "expected \(c.expectedStatus) \(c.expectedReason ?? "-"), model says \(status) \(reason ?? "-")"
        }
        return nil
    }

    private func decide(_ c: ConformanceCase, request: APNsRequest) throws -> (verdict: Verdict, historyProblem: String?) {
        let now = TestCredentials.now
        var connection = TokenConnectionState()
        var problem: String?
        for (index, entry) in c.history.enumerated() {
            let historyRequest = try c.makeRequest(entry.request ?? ConformanceCase.defaultHistoryRequest, auth: entry.auth)
            let context = DecisionContext(environment: c.decidingEnvironment,
                                          credential: try ConformanceCase.credential(entry.auth, now: now),
                                          now: now + entry.atOffset, environmentKeyReason: c.environmentKeyReason,
                                          servedAPIs: c.servedAPIs)
            let verdict = RequestDecider.decide(historyRequest, context: context, connection: &connection)
            if let expected = entry.expectStatus,
               ConformanceCase.wireStatus(verdict, request: historyRequest) != expected || verdict.reason?.rawValue != entry.expectReason {
                problem = "history[\(index)] expected \(expected) \(entry.expectReason ?? "-"), model says \(verdict.status) \(verdict.reason?.rawValue ?? "-")"
            }
            if case .accepted = verdict { connection.recordSuccess() }
        }
        let context = DecisionContext(environment: c.decidingEnvironment, credential: try ConformanceCase.credential(c.auth, now: now),
                                      now: now, environmentKeyReason: c.environmentKeyReason, servedAPIs: c.servedAPIs)
        return (RequestDecider.decide(request, context: context, connection: &connection), problem)
    }
}
