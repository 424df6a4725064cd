// swift-tools-version:6.2
// A sender's package as a user writes it: it depends on this repository and on the product APNsTesting alone, and
// its one test target holds every Swift block of docs/swift-test-kit.md with nothing but `import APNsTesting` (and
// XCTest / Swift Testing), so it stops compiling when the kit stops re-exporting what its documentation uses.
// The test files are written by `python3 scripts/doc-snippets.py swift-consumer --write` (`--check` compares them with
// the document); scripts/test-consumer-package.sh builds them. `name:` pins the dependency's identity to "MockAPNs"
// whatever the checkout folder is called.
import PackageDescription

let package = Package(
    name: "ConsumerPackage",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "MockAPNs", path: "../.."),
    ],
    targets: [
        .testTarget(
            name: "ConsumerPackageTests",
            dependencies: [
                .product(name: "APNsTesting", package: "MockAPNs"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
    ]
)
