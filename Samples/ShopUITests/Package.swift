// swift-tools-version:6.0
// A complete project that adopts Failscope: an app for the simulated screen (ShopApp), its page
// objects and UI tests (ShopUITests), recorded by the Failscope reporter. See README.md.

import PackageDescription

let package = Package(
    name: "ShopUITests",
    platforms: [.macOS(.v14)],
    dependencies: [
        // In your project: .package(url: "https://github.com/<you>/failscope.git", from: "0.1.0")
        .package(name: "Failscope", path: "../..")
    ],
    targets: [
        .target(name: "ShopApp", dependencies: [.product(name: "SimulatedUI", package: "Failscope")]),
        .testTarget(
            name: "ShopUITests",
            dependencies: [
                "ShopApp",
                .product(name: "FailscopeReporter", package: "Failscope"),
                .product(name: "PageObjects", package: "Failscope"),
                .product(name: "SimulatedUI", package: "Failscope"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
