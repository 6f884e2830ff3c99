/// The newest pass/fail outcomes of one (test, branch, device key), newest first: the `outcomes` BLOB
/// of `flaky_outcomes` (Migrations/sqlite/0001_baseline.sql), so classifying a test reads one row.
///
/// Format: `recentCapacity` (64) outcomes at most, 10 bytes each, little-endian: `ran_at` in
/// milliseconds since the Unix epoch as 48 bits, then 32 bits whose top bit is set for a failure and whose
/// low 31 bits are the commit key. Order: newest `ran_at` first; among equal times the newer result
/// (the larger id) first.
///
/// The commit key stands in for the commit's text when outcomes are compared by commit (the broken rule,
/// a commit's first failure): 32-bit FNV-1a of the UTF-8 (http://www.isthe.com/chongo/tech/comp/fnv/)
/// with the top bit cleared, `0` for no commit and `1` for a commit that hashes to 0. Two commits among
/// one test's 64 outcomes share a key with a chance of about 64 / 2^31 (3e-8).
public struct OutcomePack: Equatable, Sendable {
    /// One pass/fail result.
    public struct Outcome: Equatable, Sendable {
        /// Milliseconds since the Unix epoch.
        public var ranAt: Int64
        public var failed: Bool
        /// `OutcomePack.commitKey` of the result's commit.
        public var commitKey: UInt32

        public init(ranAt: Int64, failed: Bool, commitKey: UInt32) {
            self.ranAt = ranAt
            self.failed = failed
            self.commitKey = commitKey
        }
    }

    /// Bytes per outcome.
    public static let stride = 10
    /// Outcomes kept per key; bounds `FlakyPolicy`'s windows.
    public static let capacity = 64

    /// Newest first.
    public private(set) var outcomes: [Outcome]

    public init(_ outcomes: [Outcome] = []) {
        self.outcomes = outcomes
    }

    /// Decodes a stored BLOB; trailing bytes short of a whole outcome are ignored.
    public init(_ bytes: UnsafeRawBufferPointer) {
        var outcomes: [Outcome] = []
        outcomes.reserveCapacity(bytes.count / Self.stride)
        Self.forEach(in: bytes) { outcome in
            outcomes.append(outcome)
            return true
        }
        self.outcomes = outcomes
    }

    /// Calls `body` with the stored outcomes of `bytes`, newest first, until it returns `false`
    /// (classification reads only the window's newest few, without building the array).
    @inline(__always)
    public static func forEach(in bytes: UnsafeRawBufferPointer, _ body: (Outcome) -> Bool) {
        var offset = 0
        while offset + stride <= bytes.count {
            var ranAt: Int64 = 0
            for index in 0..<6 { ranAt |= Int64(bytes[offset + index]) << (8 * index) }
            var flags: UInt32 = 0
            for index in 0..<4 { flags |= UInt32(bytes[offset + 6 + index]) << (8 * index) }
            let outcome = Outcome(ranAt: ranAt, failed: flags & 0x8000_0000 != 0, commitKey: flags & 0x7FFF_FFFF)
            guard body(outcome) else { return }
            offset += stride
        }
    }

    /// The BLOB to store.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(outcomes.count * Self.stride)
        for outcome in outcomes {
            let ranAt = UInt64(clamping: max(0, min(outcome.ranAt, Int64(1) << 48 - 1)))
            for index in 0..<6 { bytes.append(UInt8(truncatingIfNeeded: ranAt >> (8 * index))) }
            let flags = (outcome.failed ? 0x8000_0000 : 0) | outcome.commitKey & 0x7FFF_FFFF
            for index in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: flags >> (8 * index))) }
        }
        return bytes
    }

    /// Adds a result newer (by id) than every outcome already here, at its place by time: before the
    /// first outcome that ran at the same time or earlier.
    public mutating func insert(_ outcome: Outcome) {
        let index = outcomes.firstIndex { $0.ranAt <= outcome.ranAt } ?? outcomes.count
        outcomes.insert(outcome, at: index)
    }

    /// Keeps the newest `count` outcomes.
    public mutating func trim(to count: Int = capacity) {
        if outcomes.count > count { outcomes.removeLast(outcomes.count - count) }
    }

    /// The commit key of `commit` (`nil` or `""`: no commit, 0).
    public static func commitKey(_ commit: String?) -> UInt32 {
        guard let commit, !commit.isEmpty else { return 0 }
        var hash: UInt32 = 0x811C_9DC5
        for byte in commit.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        let key = hash & 0x7FFF_FFFF
        return key == 0 ? 1 : key
    }
}
