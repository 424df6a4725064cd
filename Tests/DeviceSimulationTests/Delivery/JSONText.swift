import APNsModel
import DeviceSimulation
import XCTest

/// Parses JSON text written in a test into a `JSONValue`; malformed text fails the test (a bug in the test).
func json(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> JSONValue {
    do {
        return try JSONValue.parse(text)
    } catch {
        XCTFail("malformed test JSON (\(error)): \(text)", file: file, line: line)
        return .null
    }
}
