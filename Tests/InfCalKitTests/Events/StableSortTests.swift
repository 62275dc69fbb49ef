import Testing
@testable import InfCalEvents

/// The hand-made sort and window that keep generic types out of a warm run: the same results
/// as the standard library's stable sort and a dictionary. The oracles are those two.
@Suite struct StableSortTests {
    /// A small generator, so that the cases are the same every run.
    struct Numbers {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    @Test func sortsAsTheStandardLibrarySortsKeepingTiesInOrder() {
        var numbers = Numbers(state: 7)
        for count in [0, 1, 2, 15, 16, 17, 31, 32, 33, 100, 257, 1000, 4099] {
            // Few distinct keys, so that ties are many; the second field tells them apart.
            var items: [(key: Int, order: Int)] = []
            for order in 0..<count { items.append((numbers.next(max(1, count / 8)), order)) }
            var mine = items
            mine.sortStably { $0.key < $1.key }
            let expected = items.sorted { $0.key < $1.key }
            #expect(mine.map(\.key) == expected.map(\.key), "\(count)")
            #expect(mine.map(\.order) == expected.map(\.order), "\(count): ties out of order")
        }
    }

    @Test func wordsSortAsTheStandardLibrarySortsThem() {
        var numbers = Numbers(state: 5)
        for (count, bits) in [(0, 8), (300, 1), (300, 12), (1000, 22), (4099, 45), (5000, 64), (257, 33)] {
            var words: [UInt64] = []
            for _ in 0..<count {
                // Two draws of 31 bits, cut to the width, so that every bit of it varies.
                let word = UInt64(numbers.next(1 << 31)) << 33 | UInt64(numbers.next(1 << 31)) << 2 | UInt64(numbers.next(4))
                words.append(bits == 64 ? word : word & ((1 << UInt64(bits)) - 1))
            }
            // Duplicates too, which the index never has but a sort must keep.
            words += words.prefix(count / 10)
            var mine = words
            mine.sortWords()
            #expect(mine == words.sorted(), "\(count) words of \(bits) bits")
        }
    }

    @Test func aWindowKeepsWhatADictionaryKeeps() {
        var numbers = Numbers(state: 11)
        var window = IntWindow(limit: 500)
        var dictionary: [Int: Int] = [:]
        var startedOver = 0
        var mismatches: [String] = []
        for step in 0..<5000 {
            // Keys near each other, with a far jump now and then.
            let key = step % 97 == 0 ? numbers.next(100_000) - 50_000 : (dictionary.keys.first ?? 0) + numbers.next(300) - 150
            let value = numbers.next(1000)
            if window.set(value, at: key) {
                startedOver += 1
                dictionary = [:]
            }
            dictionary[key] = value
            for probe in stride(from: key - 200, through: key + 200, by: 7) where window.value(at: probe) != dictionary[probe] {
                mismatches.append("step \(step), key \(probe)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(startedOver > 10, "the far jumps start the window over")
    }
}
