// swift-tools-version:6.0
// Failscope: a test-results dashboard and failure-screenshot archive for Page Object UI tests.
// One module per concern, each C library behind one system-library module (README.md, "Layout").

import PackageDescription

let package = Package(
    name: "Failscope",
    platforms: [.macOS(.v14)],
    products: [
        // Results only: links the model and the client, no simulator, FreeType or libpng.
        .library(name: "FailscopeReporter", targets: ["FailscopeReporter"]),
        // The simulated screen's capture plug-in (PNG + element tree of a failing test's screen).
        .library(name: "FailscopeSimulatedScreen", targets: ["FailscopeSimulatedScreen"]),
        .library(name: "PageObjects", targets: ["PageObjects"]),
        .library(name: "SimulatedUI", targets: ["SimulatedUI"]),
        .executable(name: "failscope", targets: ["failscope"]),
    ],
    targets: [
        // C libraries from Debian, found through pkg-config.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),

        // The simulated screen, its renderer and the page-object base.
        .target(name: "SimulatedUI"),
        .target(
            name: "ScreenRaster",
            dependencies: ["SimulatedUI", "PNGCodec", "CFreeType", "CRasterKernels"]
        ),
        // Canvas's per-pixel loops: C stays fast in a debug build without unsafe optimization flags.
        .target(name: "CRasterKernels"),
        // PNG encoding, decoding and size limits for the rasterizer, the service and the store.
        .target(name: "PNGCodec", dependencies: ["CPNGShim"]),
        // libpng's setjmp error path in C, so libpng errors come back to PNGCodec as codes.
        .target(name: "CPNGShim", dependencies: ["CPNG"]),
        // Release benchmark of render + encode (scripts/bench/raster.sh).
        .executableTarget(
            name: "raster-bench", dependencies: ["ScreenRaster", "SimulatedUI", "DemoApp", "DemoAccessibility"],
            path: "Benchmarks/raster-bench"),
        // UITestCase registers the simulated screen's capture; BasePage writes the reporter's page trail.
        .target(name: "PageObjects", dependencies: ["SimulatedUI", "FailscopeReporter", "FailscopeSimulatedScreen"]),

        // The sample app and its single source of accessibility identifiers.
        .target(name: "DemoAccessibility"),
        .target(name: "DemoApp", dependencies: ["SimulatedUI", "DemoAccessibility"]),

        // Wire and domain types, the reporter, the importers.
        .target(name: "FailscopeModel", dependencies: ["CCrypto"]),
        // The spool, the uploader and the API client: no XCTest, so the CLI and service never link it.
        .target(name: "FailscopeClient", dependencies: ["FailscopeModel"]),
        .target(
            name: "FailscopeReporter",
            dependencies: ["FailscopeClient", "FailscopeModel"],
            swiftSettings: [.enableExperimentalFeature("SymbolLinkageMarkers")]
        ),
        .target(
            name: "FailscopeSimulatedScreen",
            dependencies: ["FailscopeReporter", "FailscopeModel", "SimulatedUI", "ScreenRaster"]
        ),
        // Streams reports of any size byte by byte: optimized even in debug. Unsafe flags are allowed here
        // only because no library product contains this target: SwiftPM refuses them in the library
        // products of a versioned dependency (scripts/check-adoption.sh proves those build), not in
        // its executables.
        .target(
            name: "FailscopeImport", dependencies: ["FailscopeModel", "FailscopeClient"],
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),

        // The service.
        .target(
            name: "FailscopeStore",
            dependencies: [
                "FailscopeModel", "CSQLite", "CLibPQ", "PNGCodec", "SQLiteMigrations", "PostgresMigrations",
            ]
        ),
        // Artifacts in S3-compatible object storage (the only importer of CCurl: libcurl signs the requests).
        .target(name: "FailscopeObjectStore", dependencies: ["FailscopeStore", "FailscopeModel", "CCurl"]),
        // Each engine's SQL, embedded in the binary (Migrations/README.md).
        .target(
            name: "SQLiteMigrations", path: "Migrations/sqlite",
            resources: [
                .embedInCode("0001_baseline.sql"), .embedInCode("0002_quarantine.sql"),
                .embedInCode("0003_trail_step_trace.sql"), .embedInCode("0004_webhooks.sql"),
                .embedInCode("0005_failure_signatures.sql"), .embedInCode("0006_passed_durations.sql"),
                .embedInCode("0007_webhook_filters.sql"), .embedInCode("0008_results_by_commit.sql"),
                .embedInCode("0009_results_by_commit_test.sql"),
                .embedInCode("flaky_scope.sql"), .embedInCode("flaky_summaries.sql"),
            ]
        ),
        .target(
            name: "PostgresMigrations", path: "Migrations/postgres",
            resources: [
                .embedInCode("0001_baseline.sql"), .embedInCode("0002_quarantine.sql"),
                .embedInCode("0003_trail_step_trace.sql"), .embedInCode("0004_webhooks.sql"),
                .embedInCode("0005_failure_signatures.sql"), .embedInCode("0006_passed_durations.sql"),
                .embedInCode("0007_webhook_filters.sql"), .embedInCode("0008_results_by_commit.sql"),
                .embedInCode("0009_results_by_commit_test.sql"),
                .embedInCode("flaky_scope.sql"), .embedInCode("flaky_summaries.sql"),
            ]
        ),
        // The HTTP transport (libmicrohttpd: connections, limits, deadlines, shutdown), answering with any Responder.
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD"]),
        // Routing above it: the router, route groups and their head middleware, the access log, static files.
        .target(name: "HTTPRouting", dependencies: ["HTTPServer"]),
        .executableTarget(
            name: "http-bench",
            dependencies: ["HTTPServer", "HTTPRouting", "FailscopeService", "FailscopeStore", "FailscopeModel"],
            path: "Benchmarks/http-bench"
        ),  // scripts/bench/http.sh
        .target(
            name: "FailscopeService",
            dependencies: ["FailscopeStore", "HTTPServer", "HTTPRouting", "FailscopeModel", "PNGCodec"],
            resources: [.embedInCode("openapi.json")]  // the API contract, served at /api/v1/openapi.json
        ),
        .executableTarget(
            name: "service-bench", dependencies: ["FailscopeStore", "FailscopeModel"],
            path: "Benchmarks/service-bench"),  // scripts/bench/service.sh
        .executableTarget(
            name: "flaky-bench", dependencies: ["FailscopeStore", "FailscopeModel"],
            path: "Benchmarks/flaky-bench"),  // scripts/bench/flaky.sh

        // Release benchmark of the reporter's overhead, capture cost and live-upload latency (scripts/bench/reporter.sh, live.sh).
        .executableTarget(
            name: "reporter-bench",
            dependencies: [
                "FailscopeReporter", "FailscopeSimulatedScreen", "FailscopeClient", "FailscopeModel", "DemoApp",
                "SimulatedUI", "ScreenRaster", "PageObjects",
            ],
            path: "Benchmarks/reporter-bench"
        ),
        .executableTarget(
            name: "failscope",
            dependencies: [
                "FailscopeService", "FailscopeStore", "FailscopeObjectStore", "FailscopeImport", "FailscopeClient",
                "FailscopeModel",
            ]
        ),

        // Helpers shared by test targets (not shipped in a product).
        .target(name: "FailscopeTesting"),

        // Tests: one target per module, plus the sample app's page objects and UI suite.
        .testTarget(name: "SimulatedUITests", dependencies: ["SimulatedUI"]),
        .testTarget(name: "PageObjectsTests", dependencies: ["PageObjects", "SimulatedUI", "FailscopeReporter"]),
        .testTarget(
            name: "ScreenRasterTests",
            dependencies: ["ScreenRaster", "PNGCodec", "SimulatedUI", "DemoApp", "DemoAccessibility"],
            exclude: ["References", "Fixtures"]  // PNGs read from the source tree by the tests
        ),
        .testTarget(name: "FailscopeModelTests", dependencies: ["FailscopeModel"]),
        .testTarget(
            name: "FailscopeImportTests",
            dependencies: ["FailscopeImport", "FailscopeModel", "FailscopeClient", "FailscopeTesting"]),
        .testTarget(
            name: "FailscopeStoreTests", dependencies: ["FailscopeStore", "FailscopeModel", "FailscopeTesting"]),
        .testTarget(
            name: "FailscopeObjectStoreTests",
            dependencies: [
                "FailscopeObjectStore", "FailscopeStore", "FailscopeService", "FailscopeModel", "FailscopeTesting",
                "HTTPRouting",
            ]
        ),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "HTTPRouting", "FailscopeTesting"]),
        .testTarget(name: "HTTPRoutingTests", dependencies: ["HTTPRouting", "HTTPServer"]),
        .testTarget(
            name: "FailscopeServiceTests",
            dependencies: ["FailscopeService", "FailscopeStore", "FailscopeModel", "FailscopeTesting", "HTTPRouting"]
        ),
        .testTarget(name: "FailscopeClientTests", dependencies: ["FailscopeClient", "FailscopeModel"]),
        // The CLI's option declarations, help and parser (and the built binary's usage errors).
        .testTarget(name: "FailscopeCLITests", dependencies: ["failscope", "FailscopeTesting"]),
        .testTarget(
            name: "FailscopeReporterTests",
            dependencies: [
                "FailscopeReporter", "FailscopeClient", "FailscopeModel", "ScreenRaster", "SimulatedUI",
                "FailscopeTesting",
            ]
        ),
        .testTarget(
            name: "DemoUITests",
            dependencies: ["PageObjects", "SimulatedUI", "DemoApp", "DemoAccessibility", "FailscopeReporter"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
