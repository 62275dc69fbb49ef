import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

@Suite struct InfiniteIndexTests {
    /// An index over the integers with bounds, counting how often its actions run.
    final class Counter { var calls = 0 }

    func bounded(_ start: Int, _ range: ClosedRange<Int>, counter: Counter = Counter()) -> InfiniteIndex<Int> {
        InfiniteIndex(
            current: start,
            increase: { counter.calls += 1; return $0 < range.upperBound ? $0 + 1 : nil },
            decrease: { counter.calls += 1; return $0 > range.lowerBound ? $0 - 1 : nil }
        )
    }

    @Test func forwardEndsAtTheBound() {
        #expect(Array(bounded(3, 0...7).forward) == [3, 4, 5, 6, 7])
    }

    @Test func backwardEndsAtTheBound() {
        #expect(Array(bounded(3, 0...7).backward) == [3, 2, 1, 0])
    }

    @Test func sequencesAreLazy() {
        let counter = Counter()
        let index = bounded(0, 0...Int.max - 1, counter: counter)
        #expect(Array(index.forward.prefix(5)) == [0, 1, 2, 3, 4])
        // Five values need four steps; nothing past the last value taken is computed.
        #expect(counter.calls == 4)
    }

    @Test func nothingPastNilIsComputed() {
        let counter = Counter()
        var iterator = bounded(5, 0...6, counter: counter).forward.makeIterator()
        #expect(iterator.next() == 5)
        #expect(iterator.next() == 6)
        #expect(iterator.next() == nil)
        #expect(iterator.next() == nil)
        #expect(counter.calls == 2)
    }

    @Test func movingStopsAtBounds() {
        var index = bounded(1, 0...3)
        let movedBack = index.moveBackward()
        #expect(movedBack && index.current == 0)
        let movedPastBound = index.moveBackward()
        #expect(!movedPastBound && index.current == 0)
        let forward = index.move(by: 10)
        #expect(forward == 3 && index.current == 3)
        let backward = index.move(by: -2)
        #expect(backward == 2 && index.current == 1)
        #expect(!bounded(3, 0...3).increase(3).isSome)
    }
}

extension Optional {
    var isSome: Bool { self != nil }
}
