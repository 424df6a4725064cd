// swift-tools-version:6.2
// An example sender ("your order shipped") and the tests a user of MockAPNs would write for it.
//
// It depends on the MockAPNs package two folders up. `name:` pins the package's identity to "MockAPNs"
// whatever the checkout folder is called. In your own project use
// `.package(url: "https://…/MockAPNs.git", branch: "main")` instead (no release tags yet, so `from:` cannot resolve).
import PackageDescription

let package = Package(
    name: "OrderNotifier",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "OrderNotifier", targets: ["OrderNotifier"]),
    ],
    dependencies: [
        .package(name: "MockAPNs", path: "../.."),
    ],
    targets: [
        // The sender: builds the payload, sends it with APNsClient, forgets tokens APNs says are gone.
        .target(
            name: "OrderNotifier",
            dependencies: [
                // The client and the model it is written in (push types, reasons, `JSONValue`), which it re-exports.
                .product(name: "APNsClient", package: "MockAPNs"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // What a user writes: XCTest and Swift Testing suites against an in-process mock.
        .testTarget(
            name: "OrderNotifierTests",
            dependencies: [
                "OrderNotifier",
                .product(name: "APNsClient", package: "MockAPNs"),
                .product(name: "APNsTesting", package: "MockAPNs"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
    ]
)
