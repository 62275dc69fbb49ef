extension Array {
    /// Sorts the elements by `isBefore`, keeping equal ones in their order: what `sort(by:)`
    /// gives (a stable sort's result is the only one), by a bottom-up merge sort of runs made by
    /// insertion. Beyond twenty elements, the standard library's sort keeps its runs in an array
    /// of ranges, whose generic type the first sort of a run looks up by name: on the way to a
    /// warm cache's first page that costs more than sorting.
    mutating func sortStably(by isBefore: (Element, Element) -> Bool) {
        let count = self.count
        guard count > 1 else { return }
        let run = 16
        withUnsafeMutableBufferPointer { items in
            var low = 0
            while low < count {
                let high = Swift.min(low + run, count)
                var next = low + 1
                while next < high {
                    let item = items[next]
                    var place = next
                    while place > low, isBefore(item, items[place - 1]) {
                        items[place] = items[place - 1]
                        place -= 1
                    }
                    items[place] = item
                    next += 1
                }
                low = high
            }
        }
        guard count > run else { return }
        var other = self
        var width = run
        var sortedInSelf = true
        while width < count {
            if sortedInSelf {
                withUnsafeMutableBufferPointer { from in
                    other.withUnsafeMutableBufferPointer { into in Self.merge(from, into: into, width: width, by: isBefore) }
                }
            } else {
                other.withUnsafeMutableBufferPointer { from in
                    withUnsafeMutableBufferPointer { into in Self.merge(from, into: into, width: width, by: isBefore) }
                }
            }
            sortedInSelf.toggle()
            width *= 2
        }
        if !sortedInSelf { self = other }
    }

    /// Merges each pair of neighbouring sorted runs of `width` elements of `from` into `into`,
    /// the first run's elements before equal ones of the second.
    private static func merge(_ from: UnsafeMutableBufferPointer<Element>, into: UnsafeMutableBufferPointer<Element>, width: Int,
                              by isBefore: (Element, Element) -> Bool) {
        let count = from.count
        var low = 0
        while low < count {
            let middle = Swift.min(low + width, count)
            let high = Swift.min(middle + width, count)
            var (left, right, out) = (low, middle, low)
            while left < middle, right < high {
                if isBefore(from[right], from[left]) {
                    into[out] = from[right]
                    right += 1
                } else {
                    into[out] = from[left]
                    left += 1
                }
                out += 1
            }
            while left < middle {
                into[out] = from[left]
                left += 1
                out += 1
            }
            while right < high {
                into[out] = from[right]
                right += 1
                out += 1
            }
            low = high
        }
    }
}

extension Array where Element == UInt64 {
    /// Sorts the words in ascending order, as `sort()` does, by a radix sort of 11 bits a pass
    /// over the bits they use: the cache's index sorts one word an event (start above place),
    /// and comparing costs several times more than counting. A few words are merged
    /// (`sortStably`), not sorted by `sort()`, whose array of ranges costs more to look up.
    mutating func sortWords() {
        guard count > 256 else { return sortStably(by: <) }
        var used: UInt64 = 0
        for word in self { used |= word }
        let bits = UInt64.bitWidth - used.leadingZeroBitCount
        let (digitBits, buckets) = (11, 1 << 11)
        var other = [UInt64](repeating: 0, count: count)
        var starts = [Int](repeating: 0, count: buckets)
        var shift = 0
        while shift < bits {
            let (by, mask) = (UInt64(shift), UInt64(buckets - 1))
            starts.withUnsafeMutableBufferPointer { starts in
                for bucket in 0..<buckets { starts[bucket] = 0 }
                withUnsafeBufferPointer { words in
                    for word in words { starts[Int(word >> by & mask)] += 1 }
                    var total = 0
                    for bucket in 0..<buckets { (starts[bucket], total) = (total, total + starts[bucket]) }
                    other.withUnsafeMutableBufferPointer { sorted in
                        for word in words {
                            let bucket = Int(word >> by & mask)
                            sorted[starts[bucket]] = word
                            starts[bucket] += 1
                        }
                    }
                }
            }
            swap(&self, &other)
            shift += digitBits
        }
    }
}
