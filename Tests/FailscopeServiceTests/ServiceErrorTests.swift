import FailscopeStore
import HTTPServer
import XCTest

@testable import FailscopeService

/// The one mapping from the store's errors to HTTP: statuses, stable codes, `Retry-After`.
final class ServiceErrorTests: XCTestCase {
    func testEveryStoreErrorHasItsStatusCodeAndRetryAdvice() {
        let cases: [(StoreError, Int, String, String?)] = [
            (.invalid("results[0].attempt must be 1...1000"), 422, "validation_failed", nil),
            (.runNotFound("r1"), 404, "run_not_found", nil),
            (.conflict("a run's project cannot change"), 409, "conflict", nil),
            (.artifactRejected("not a PNG"), 422, "artifact_rejected", nil),
            (.busy, 503, "busy", "1"),
            (.timedOut("canceling statement due to statement timeout"), 503, "database_timeout", "5"),
            (.unavailable("SQLite cannot open the database file"), 503, "database_unavailable", "5"),
            (.storageFull("The disk holding the data folder is full"), 507, "insufficient_storage", "60"),
        ]
        for (error, status, code, retryAfter) in cases {
            let mapped = ServiceError(error)
            XCTAssertEqual(mapped.status.code, status, "\(error)")
            XCTAssertEqual(mapped.code, code, "\(error)")
            XCTAssertEqual(mapped.headers["Retry-After"], retryAfter, "\(error)")
        }
        XCTAssertEqual(ServiceError(.invalid("cursor is malformed"), fromQuery: true).status.code, 400)
        XCTAssertEqual(ServiceError(.runNotFound("r1")).message, "run 'r1' does not exist")
        XCTAssertFalse(ServiceError(.unavailable("x")).message.contains("x"), "the engine's words stay in the log")
    }

    func testWrappingMapsStoreErrorsAndPassesOthers() {
        XCTAssertThrowsError(try ServiceError.wrapping { throw StoreError.busy }) { error in
            XCTAssertEqual((error as? ServiceError)?.status.code, 503)
        }
        struct Other: Error {}
        XCTAssertThrowsError(try ServiceError.wrapping { throw Other() }) { error in
            XCTAssertTrue(error is Other, "anything else is left for the 500 path")
        }
    }
}
