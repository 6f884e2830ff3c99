/// Percentiles of durations, by the nearest-rank method: the p-th percentile of n sorted values is the value at
/// 1-based rank ⌈p·n/100⌉ (at least 1), always one of the values, never interpolated
/// (https://en.wikipedia.org/wiki/Percentile#The_nearest-rank_method). The one definition every duration
/// statistic uses, computed in Swift over rows the store reads, so both engines give the same answer
/// (SQLite has no percentile function; PostgreSQL's `percentile_cont` interpolates).
public enum Percentile {
    /// The 1-based nearest rank of percentile `percent` (1...100) among `count` (≥ 1) values.
    public static func rank(_ percent: Int, of count: Int) -> Int {
        max(1, (percent * count + 99) / 100)
    }

    /// Percentile `percent` (1...100) of `sorted` (ascending); `nil` when empty.
    public static func of(_ sorted: [Double], _ percent: Int) -> Double? {
        sorted.isEmpty ? nil : sorted[rank(percent, of: sorted.count) - 1]
    }
}
