import APNsModel
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP answer as a test reads it.
public struct HTTPAnswer {
    /// Status code.
    public let status: Int
    /// Headers, names lowercased.
    public let headers: [String: String]
    /// Raw body.
    public let body: Data

    /// The body as JSON (fails the test when it is not).
    public func json(file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        do { return try JSONValue.parse(Array(body)) } catch {
            XCTFail("body is not JSON: \(String(decoding: body, as: UTF8.self))", file: file, line: line)
            throw error
        }
    }

    /// The body as text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// Plain HTTP/1.1 requests over URLSession (real sockets, no test doubles).
public struct HTTPTestClient {
    /// E.g. `http://127.0.0.1:53210`.
    public let base: String

    /// A client for the server at `base` (e.g. `http://127.0.0.1:8080`).
    public init(base: String) {
        self.base = base
    }

    /// Sends a request and returns the answer.
    public func send(_ method: String, _ path: String, body: String? = nil, headers: [String: String] = [:]) async throws -> HTTPAnswer {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        request.timeoutInterval = 10
        if let body { request.httpBody = Data(body.utf8) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return HTTPAnswer(status: http.statusCode, headers: fields, body: data)
    }
}
