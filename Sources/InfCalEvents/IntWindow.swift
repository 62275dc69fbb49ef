/// Integers kept by integer key (a day, a span of a year) in one window of consecutive keys:
/// what a dictionary of them does for keys that lie together, without hashing. A dictionary
/// keyed by `Int` made the first one of a run look its generic type and `Hashable`
/// conformance up by name, which cost more than all its lookups in a run of a month.
struct IntWindow {
    /// The key of `values[0]`.
    private(set) var first = 0
    /// `missing` where no value is kept.
    private var values: [Int] = []
    /// The most keys the window spans: past that it starts over with the new key alone.
    let limit: Int

    private static let missing = Int.min

    init(limit: Int) {
        self.limit = limit
    }

    /// The value kept for `key`, if any.
    func value(at key: Int) -> Int? {
        let place = key - first
        guard place >= 0, place < values.count, values[place] != Self.missing else { return nil }
        return values[place]
    }

    /// Keeps `value` (never `Int.min`) for `key`, widening the window to hold it.
    /// - returns: true when the window started over, keeping `key` alone.
    @discardableResult
    mutating func set(_ value: Int, at key: Int) -> Bool {
        if values.isEmpty {
            first = key
            values = [value]
            return false
        }
        let low = min(first, key)
        let high = max(first + values.count - 1, key)
        if high - low >= limit {
            first = key
            values.removeAll(keepingCapacity: true)
            values.append(value)
            return true
        }
        if key < first {
            values.insert(contentsOf: [Int](repeating: Self.missing, count: first - key), at: 0)
            first = key
        } else {
            while key > first + values.count { values.append(Self.missing) }
            if key == first + values.count {
                values.append(value)
                return false
            }
        }
        values[key - first] = value
        return false
    }
}
