import APNsModel
import XCTest

final class DeviceTokenTests: XCTestCase {
    func testFormat() {
        let cases: [(String, Bool, String)] = [
            ("", false, "empty"),
            ("a", false, "one digit"),
            ("abc", false, "odd length"),
            (String(repeating: "a", count: 63), false, "63 digits"),
            (String(repeating: "ab", count: 32), true, "64 digits"),
            (String(repeating: "AB", count: 32), true, "upper case (lenient)"),
            (String(repeating: "aB", count: 32), true, "mixed case"),
            (String(repeating: "0f", count: 54), true, "108 digits"),
            (String(repeating: "12", count: 80), true, "160 digits (simulator)"),
            ("ab", true, "2 digits: no length rule"),
            ("zz" + String(repeating: "a", count: 62), false, "non-hex letters"),
            ("<" + String(repeating: "a", count: 62) + ">", false, "NSData description"),
            (String(repeating: "ab", count: 16) + " " + String(repeating: "ab", count: 15) + "a", false, "space"),
            ("0x" + String(repeating: "ab", count: 32), false, "0x prefix"),
            ("éé", false, "non-ASCII"),
        ]
        for (token, valid, label) in cases {
            XCTAssertEqual(DeviceToken.isValid(token), valid, label)
        }
        XCTAssertEqual(DeviceToken.canonical("ABcd"), "abcd")
    }
}
