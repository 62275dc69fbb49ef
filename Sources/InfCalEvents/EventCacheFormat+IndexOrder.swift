import InfCalModel

extension EventCacheFormat {
    // MARK: The index's order

    /// A place in the index's order: the group (short, longer, without end) with the halves of
    /// months above it, the earliest start, then the place in reading order (ties keep it).
    private struct IndexKey {
        let group: UInt64
        let earliest: Int
        let ordinal: Int
    }

    /// The index's order of `spans`: their places in reading order. The events whose
    /// instances the table holds come last (in the same order among themselves), so that
    /// their blocks hold no other: a run inside the table's years passes over those blocks
    /// unread, as it takes their instances from the table.
    static func indexOrder(of spans: [Span]) -> [Int] {
        let order = indexOrderByStart(of: spans)
        guard spans.contains(where: \.inTable) else { return order }
        var result: [Int] = []
        result.reserveCapacity(order.count)
        for ordinal in order where !spans[ordinal].inTable { result.append(ordinal) }
        for ordinal in order where spans[ordinal].inTable { result.append(ordinal) }
        return result
    }

    /// The order of `spans` by group (short, longer, without end) and start.
    private static func indexOrderByStart(of spans: [Span]) -> [Int] {
        // The group of a span: short, longer (their earliest starts spread from `low` to
        // `high`), or without end, with its halves of months.
        var (low, high) = (Int.max, Int.min)
        for span in spans where span.latest != Int.max { (low, high) = (min(low, span.earliest), max(high, span.earliest)) }
        func isShort(_ span: Span) -> Bool {
            let (reach, overflow) = span.latest.subtractingReportingOverflow(span.earliest)
            return !overflow && reach <= shortReach
        }
        // The short and the longer events (most of them) sort as numbers: the start above
        // the place in reading order in one word, where the spread of starts leaves room (a
        // closure comparing keys costs several times more). Those without end, fewer, and any
        // spread too wide compare keys.
        let placeBits = UInt64.bitWidth - max(1, spans.count).leadingZeroBitCount
        let (spread, overflow) = high.subtractingReportingOverflow(low)
        guard low <= high, !overflow, placeBits < 62, spread >> (63 - placeBits) == 0 else {
            let keys = spans.enumerated().map { ordinal, span in
                IndexKey(group: span.latest == Int.max ? 2 << 32 | span.halves : isShort(span) ? 0 : 1 << 32,
                         earliest: span.earliest, ordinal: ordinal)
            }
            return sortedKeys(keys).map(\.ordinal)
        }
        var (short, longer): ([UInt64], [UInt64]) = ([], [])
        short.reserveCapacity(spans.count)
        var endless: [IndexKey] = []
        for (ordinal, span) in spans.enumerated() {
            if span.latest == Int.max {
                endless.append(IndexKey(group: 2 << 32 | span.halves, earliest: span.earliest, ordinal: ordinal))
            } else if isShort(span) {
                short.append(UInt64(span.earliest - low) << placeBits | UInt64(ordinal))
            } else {
                longer.append(UInt64(span.earliest - low) << placeBits | UInt64(ordinal))
            }
        }
        short.sortWords()
        longer.sortWords()
        var result: [Int] = []
        result.reserveCapacity(spans.count)
        let place = UInt64(1) << placeBits - 1
        for word in short { result.append(Int(word & place)) }
        for word in longer { result.append(Int(word & place)) }
        for key in sortedKeys(endless) { result.append(key.ordinal) }
        return result
    }

    /// `keys` sorted by group, earliest start and place; the places make every key distinct,
    /// so any sort gives the one order.
    private static func sortedKeys(_ keys: [IndexKey]) -> [IndexKey] {
        keys.sorted { a, b in
            a.group != b.group ? a.group < b.group : a.earliest != b.earliest ? a.earliest < b.earliest : a.ordinal < b.ordinal
        }
    }
}
