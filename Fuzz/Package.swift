// swift-tools-version:6.2
// libFuzzer executables for MockAPNs, one per target; built and run by `make fuzz` (see README.md here).
// A separate package so the fuzz products and their sanitizer flags never enter the main build. Build with
//   swift build --package-path Fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
// (every module is instrumented for coverage; FuzzDriver hands each executable's `main` to libFuzzer).
import PackageDescription

let names = ["JSON", "JWT", "Decider", "Lint", "Simulator", "HTTP2"]

let package = Package(
    name: "MockAPNsFuzz",
    dependencies: [.package(name: "MockAPNs", path: "..")],
    targets: [
        .target(name: "CFuzzDriver", path: "Targets/CFuzzDriver"),
        .target(name: "FuzzDriver", dependencies: ["CFuzzDriver"], path: "Targets/FuzzDriver",
                swiftSettings: [.treatAllWarnings(as: .error)]),
    ] + names.map { name in
        .executableTarget(
            name: "Fuzz\(name)",
            dependencies: ["FuzzDriver", .product(name: "FuzzHarness", package: "MockAPNs")],
            path: "Targets/Fuzz\(name)",
            swiftSettings: [.treatAllWarnings(as: .error)]
        )
    }
)
