import APNsModel
import Foundation
import MockAPNs
@testable import MockAPNsControl
import TestSupport
import XCTest

/// The OpenAPI document (`/api/v1/openapi.json`) against the routes, both ways: every route the control plane
/// registers (read from `Sources/MockAPNsControl/Routes/` and `Dashboard/`) is documented, and every documented operation answers a
/// request (anything but 404 for an unknown route or 405), with path parameters filled in.
final class OpenAPIDocumentTests: LeakCheckedTestCase {
    /// "METHOD /path" for every operation the document describes.
    private func documented(_ document: JSONValue) -> Set<String> {
        var operations = Set<String>()
        for path in document["paths"]?.objectMembers ?? [] {
            for method in path.value.objectMembers ?? [] { operations.insert(method.key.uppercased() + " " + path.key) }
        }
        return operations
    }

    /// "METHOD /path" for every route registered in the route and dashboard files: `router.get("x")`, `router.group("a").get("b")`,
    /// and calls on a variable bound to `router.group("a")` (with or without a path of their own).
    private func registered() throws -> Set<String> {
        var routes = Set<String>()
        let call = try NSRegularExpression(pattern: #"(\w+)(?:\.group\("([^"]*)"\))?\.(get|post|put|delete)(?:\("([^"]*)"\))?\s*\{"#)
        let binding = try NSRegularExpression(pattern: #"let (\w+) = router\.group\("([^"]*)"\)"#)
        let files = try ["Routes", "Dashboard"].flatMap { folder in
            let path = RepoPaths.root + "/Sources/MockAPNsControl/" + folder
            return try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".swift") }.map { path + "/" + $0 }
        }
        for file in files {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let range = NSRange(text.startIndex..., in: text)
            var prefixes = ["router": ""]
            for match in binding.matches(in: text, range: range) {
                prefixes[String(text[Range(match.range(at: 1), in: text)!])] = String(text[Range(match.range(at: 2), in: text)!])
            }
            for match in call.matches(in: text, range: range) {
                func group(_ index: Int) -> String? { Range(match.range(at: index), in: text).map { String(text[$0]) } }
                guard let base = group(1), let prefix = prefixes[base], let method = group(3) else { continue }
                let parts = [prefix, group(2) ?? "", group(4) ?? ""].filter { !$0.isEmpty && $0 != "/" }
                let path = "/" + parts.joined(separator: "/").split(separator: "/").map { part in
                    part.hasPrefix(":") ? "{\(part.dropFirst())}" : String(part)
                }.joined(separator: "/")
                routes.insert(method.uppercased() + " " + path)
            }
        }
        return routes
    }

    func testTheDocumentDescribesEveryRouteAndEveryDocumentedRouteAnswers() async throws {
        let harness = try await ControlTestHarness.start()
        defer { Task { await harness.stop() } }
        harness.mock.recorder.append(RecordFixtures.make())
        let answer = try await harness.client.send("GET", "/api/v1/openapi.json")
        XCTAssertEqual(answer.status, 200)
        let document = try JSONValue.parse(Array(answer.body))
        XCTAssertEqual(document["openapi"]?.stringValue, "3.1.0")
        let operations = documented(document)

        let routes = try registered()
        XCTAssertGreaterThan(routes.count, 15, "the route files were read: \(routes)")
        XCTAssertEqual(routes.subtracting(operations), [], "registered but not documented")
        XCTAssertEqual(operations.subtracting(routes), [], "documented but not registered")

        let bodies = [
            "PUT /api/v1/devices/{token}": #"{"state":"unregistered"}"#,
            "POST /api/v1/faults": #"{"action":{"type":"status","status":500}}"#,
            "POST /api/v1/lint": #"{"payload":{"aps":{"alert":"hi"}}}"#,
            "POST /api/v1/test-push": #"{}"#,
        ]
        for operation in operations.sorted() where !operation.hasSuffix("/api/v1/stream") {   // a stream never ends
            let parts = operation.split(separator: " ", maxSplits: 1).map(String.init)
            let path = parts[1].replacingOccurrences(of: "{id}", with: parts[1].contains("faults") ? "f1" : "1")
                .replacingOccurrences(of: "{token}", with: "aabb").replacingOccurrences(of: "{file}", with: "app.js")
                .replacingOccurrences(of: "{project}", with: "mockapns-test")
            let reply = try await harness.client.send(parts[0], path, body: bodies[operation],
                                                      headers: bodies[operation] == nil ? [:] : ["content-type": "application/json"])
            let documentedStatuses = Set(document["paths"]?[parts[1]]?[parts[0].lowercased()]?["responses"]?.objectMembers?.map(\.key) ?? [])
            XCTAssertTrue(documentedStatuses.contains(String(reply.status)),
                          "\(operation) → \(path) answered \(reply.status), not one of \(documentedStatuses.sorted())")
        }
    }
}
