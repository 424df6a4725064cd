import APNsModel
import XCTest

final class RouteTests: XCTestCase {
    func testResolve() {
        let token = "ab12"
        let cases: [(String, String, Result<Route, APNsReason>)] = [
            ("POST", "/3/device/ab12", .success(.device(token: token))),
            ("POST", "/3/device/ab12?x=1", .success(.device(token: token))),
            ("POST", "/3/device/zz", .success(.device(token: "zz"))),  // format is checked later
            ("GET", "/3/device/ab12", .failure(.methodNotAllowed)),
            ("PUT", "/3/device/ab12", .failure(.methodNotAllowed)),
            ("DELETE", "/3/device/", .failure(.methodNotAllowed)),
            ("post", "/3/device/ab12", .failure(.methodNotAllowed)),
            ("POST", "/3/device/", .failure(.missingDeviceToken)),
            ("POST", "/3/device", .failure(.missingDeviceToken)),
            ("POST", "/3/device?x", .failure(.missingDeviceToken)),
            ("POST", "/3/device/ab12/x", .failure(.badPath)),
            ("POST", "/3/devices/ab12", .failure(.badPath)),
            ("POST", "/3/deviceab12", .failure(.badPath)),
            ("POST", "/2/device/ab12", .failure(.badPath)),
            ("POST", "/", .failure(.badPath)),
            ("POST", "", .failure(.badPath)),
            ("POST", "/4/broadcasts/apps/com.x", .success(.broadcast(bundleID: "com.x"))),
            ("GET", "/4/broadcasts/apps/com.x", .failure(.badPath)),
            ("PATCH", "/4/broadcasts/apps/com.x", .failure(.methodNotAllowed)),
            ("POST", "/4/broadcasts/apps/", .failure(.badPath)),
            ("POST", "/4/broadcasts/apps/com.x/y", .failure(.badPath)),
            ("POST", "/1/apps/com.x/channels", .success(.channels(bundleID: "com.x"))),
            ("GET", "/1/apps/com.x/channels", .success(.channels(bundleID: "com.x"))),
            ("DELETE", "/1/apps/com.x/channels", .success(.channels(bundleID: "com.x"))),
            ("PUT", "/1/apps/com.x/channels", .failure(.methodNotAllowed)),
            ("GET", "/1/apps/com.x/all-channels", .success(.allChannels(bundleID: "com.x"))),
            ("POST", "/1/apps/com.x/all-channels", .failure(.badPath)),
            ("DELETE", "/1/apps/com.x/all-channels", .failure(.badPath)),
            ("GET", "/1/apps//channels", .failure(.badPath)),
            ("GET", "/1/apps/com.x/channel", .failure(.badPath)),
            ("GET", "/1/apps/com.x/channels/abc", .failure(.badPath)),
        ]
        for (method, path, expected) in cases {
            XCTAssertEqual(Route.resolve(method: method, path: path), expected, "\(method) \(path)")
        }
    }

    func testChannelOperations() {
        let channels = Route.channels(bundleID: "b")
        XCTAssertEqual(channels.channelOperation(method: "POST"), .create)
        XCTAssertEqual(channels.channelOperation(method: "GET"), .read)
        XCTAssertEqual(channels.channelOperation(method: "DELETE"), .delete)
        XCTAssertEqual(Route.allChannels(bundleID: "b").channelOperation(method: "GET"), .list)
        XCTAssertNil(Route.device(token: "ab").channelOperation(method: "POST"))
        XCTAssertEqual(Route.broadcast(bundleID: "b").bundleID, "b")
        XCTAssertNil(Route.device(token: "ab").bundleID)
    }
}
