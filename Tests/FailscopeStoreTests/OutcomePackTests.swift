import XCTest

@testable import FailscopeStore

final class OutcomePackTests: XCTestCase {
    func testRoundTripsTimeFailureAndCommitKeyInTenBytesEach() {
        let outcomes = [
            OutcomePack.Outcome(ranAt: 1_788_556_108_272, failed: true, commitKey: 0x7FFF_FFFF),
            OutcomePack.Outcome(ranAt: 1_788_556_000_000, failed: false, commitKey: 0),
            OutcomePack.Outcome(ranAt: 0, failed: true, commitKey: 12345),
        ]
        let bytes = OutcomePack(outcomes).encoded()
        XCTAssertEqual(bytes.count, 30)
        // Little-endian: the time's low byte first, the failure in the top bit of the last byte.
        XCTAssertEqual(bytes[0], UInt8(1_788_556_108_272 & 0xFF))
        XCTAssertEqual(bytes[9], 0xFF)
        XCTAssertEqual(bytes[19], 0x00)
        let decoded = bytes.withUnsafeBytes { OutcomePack($0) }
        XCTAssertEqual(decoded.outcomes, outcomes)
        // A torn tail is ignored rather than read past.
        XCTAssertEqual((bytes + [1, 2, 3]).withUnsafeBytes { OutcomePack($0) }.outcomes, outcomes)
    }

    func testInsertPlacesANewerResultBeforeEqualTimesAndTrimKeepsTheNewest() {
        var pack = OutcomePack()
        for (ranAt, failed) in [(100, false), (300, true), (200, false), (300, false), (50, true)] {
            pack.insert(OutcomePack.Outcome(ranAt: Int64(ranAt), failed: failed, commitKey: 1))
        }
        XCTAssertEqual(pack.outcomes.map(\.ranAt), [300, 300, 200, 100, 50])
        XCTAssertEqual(pack.outcomes.map(\.failed), [false, true, false, false, true], "the later of two at 300 first")
        pack.trim(to: 3)
        XCTAssertEqual(pack.outcomes.map(\.ranAt), [300, 300, 200])
    }

    func testCommitKeyIsFNV1aWithoutTheTopBitAndZeroOnlyForNoCommit() {
        // FNV-1a 32 of "a" is 0xE40C292C; of "" it is the offset basis, never used: "" is no commit.
        XCTAssertEqual(OutcomePack.commitKey("a"), 0x640C_292C)
        XCTAssertEqual(OutcomePack.commitKey("foobar"), 0xBF9C_F968 & 0x7FFF_FFFF)
        XCTAssertEqual(OutcomePack.commitKey(""), 0)
        XCTAssertEqual(OutcomePack.commitKey(nil), 0)
        XCTAssertNotEqual(
            OutcomePack.commitKey("63033b0ca389c35a0000000000000004"),
            OutcomePack.commitKey("63033b0ca389c35a0000000000000005"))
    }

    func testThePopulateAggregatePacksTheNewest64OfAGroup() throws {
        let db = try Database(path: ":memory:", mode: .readWrite)
        try FlakySummaries.registerFunctions(db)
        try db.execute("CREATE TABLE r (key TEXT, ran_at INTEGER, id INTEGER, failed INTEGER, commit_sha TEXT)")
        for id in 1...70 {
            let commit: String? = id % 2 == 0 ? "c1" : nil
            let values: [any SQLBindable] = ["k", 1_000 + id / 2, id, id % 3 == 0, commit]
            try db.run("INSERT INTO r VALUES (?, ?, ?, ?, ?)", values)
        }
        let committed = OutcomePack.commitKey("c1")
        func outcome(_ id: Int) -> OutcomePack.Outcome {
            OutcomePack.Outcome(
                ranAt: Int64(1_000 + id / 2), failed: id % 3 == 0, commitKey: id % 2 == 0 ? committed : 0)
        }
        func pack(_ sql: String) throws -> OutcomePack? {
            try db.queryFirst(sql) { $0.withBlob(0) { OutcomePack($0) } }
        }
        XCTAssertEqual(
            try pack("SELECT failscope_outcome_pack(ran_at, id, failed, commit_sha, NULL) FROM r GROUP BY key")?
                .outcomes,
            (7...70).reversed().map(outcome))
        // Merged into a stored pack of the results up to 40: the same newest 64, the group's first among equal
        // times (result 41 ran with 40, at 1,020).
        let stored = try XCTUnwrap(
            try pack("SELECT failscope_outcome_pack(ran_at, id, failed, commit_sha, NULL) FROM r WHERE id <= 40"))
        let merged = try db.queryFirst(
            "SELECT failscope_outcome_pack(ran_at, id, failed, commit_sha, ?) FROM r WHERE id > 40",
            [SQLValue.blob(stored.encoded())]
        ) { $0.withBlob(0) { OutcomePack($0) } }
        XCTAssertEqual(merged?.outcomes, (7...70).reversed().map(outcome))
        XCTAssertEqual(
            merged?.outcomes[29], outcome(41), "41 (the group's) before 40 (the stored pack's), both at 1,020")
    }
}
