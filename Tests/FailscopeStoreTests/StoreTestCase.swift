import FailscopeModel
import FailscopeTesting
import Foundation
import XCTest

@_spi(Engine) @testable import FailscopeStore

/// The engines the store's tests run on.
enum TestEngine: String, CaseIterable {
    case sqlite
    case postgres
}

/// A test case whose every test runs once per engine: on SQLite (a store in a temporary folder) and on
/// PostgreSQL (a database of its own on the server of `FAILSCOPE_TEST_POSTGRES_URL`, created for the pass
/// and dropped after it). The same test body, the same assertions; a failure names its engine.
///
/// Without a server the PostgreSQL passes are left out with one line on stderr, except in CI (`CI=true`),
/// where each test fails: the PostgreSQL tests never skip there (`make test` and `.ci/run` start one).
class StoreTestCase: XCTestCase {
    /// The engine of the pass running now.
    private(set) var engine: TestEngine = .sqlite
    /// The PostgreSQL databases this pass created.
    private var databases: [PostgresScratchDatabase] = []
    /// The PostgreSQL server of the pass (`FAILSCOPE_TEST_POSTGRES_URL`).
    private var server = ""

    /// The test method, kept to run it a second time (XCTest's own `invokeTest` runs once per instance).
    private let test: (XCTestCase) throws -> Void

    required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        test = testClosure
        super.init(name: name, testClosure: testClosure)
    }

    /// The SQLite pass through XCTest (setUp, the test, tearDown), then the PostgreSQL pass the same way.
    override func invokeTest() {
        engine = .sqlite
        super.invokeTest()
        engine = .postgres
        guard let server = PostgresTestServer.url else {
            if PostgresTestServer.isRequired {
                XCTFail(PostgresTestServer.missingInCI)
            } else {
                PostgresTestServer.reportSkippingOnce()
            }
            return
        }
        self.server = server
        defer {
            for database in databases { database.drop() }
            databases.removeAll()
        }
        do {
            try setUpWithError()
            setUp()
            try test(self)
        } catch is XCTSkip {
        } catch {
            recordFailure(withDescription: "threw error \"\(error)\"", inFile: "<EXPR>", atLine: 0, expected: false)
        }
        tearDown()
        do { try tearDownWithError() } catch {
            recordFailure(withDescription: "tearDown threw \"\(error)\"", inFile: "<EXPR>", atLine: 0, expected: false)
        }
    }

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        super.recordFailure(
            withDescription: "[\(engine.rawValue)] \(description)", inFile: filePath, atLine: lineNumber,
            expected: expected)
    }

    /// Three days ago at a whole hour: inside the default flaky window, and a time a quarantine entry can be added
    /// at.
    static let threeDaysAgoOnTheHour = Date(
        timeIntervalSince1970: (Date().timeIntervalSince1970 / 3_600).rounded(.down) * 3_600 - 3 * 86_400)

    /// A new store on this pass's engine with its data folder at `directory` (default: a new temporary one).
    func makeStore(directory: URL? = nil) throws -> FailscopeStore {
        let directory = try directory ?? makeTemporaryDirectory()
        return try FailscopeStore(directory: directory, database: try makeDatabase(directory: directory))
    }

    /// A new, empty database on this pass's engine: the data folder's SQLite file, or a new PostgreSQL database.
    func makeDatabase(directory: URL) throws -> DatabaseLocation {
        switch engine {
        case .sqlite:
            return .sqlite(in: directory)
        case .postgres:
            let database = try PostgresScratchDatabase(server: server)
            databases.append(database)
            return .postgres(url: database.url)
        }
    }
}
