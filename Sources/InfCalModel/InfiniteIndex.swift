/// An index that scrolls without end in both directions until its actions say otherwise.
///
/// The index holds a current value and two actions: `increase` returns the neighbour after a
/// value and `decrease` the neighbour before it. Either returns nil at a bound, and nil is the
/// end: nothing past it is ever asked for. The sequences are lazy, so an index with no bound
/// can be walked for ever in constant memory.
public struct InfiniteIndex<Index> {
    /// The value the index stands on.
    public private(set) var current: Index
    /// The neighbour after a value, or nil when there is none (a bound).
    public let increase: (Index) -> Index?
    /// The neighbour before a value, or nil when there is none (a bound).
    public let decrease: (Index) -> Index?

    /// Creates an index standing on `current` that steps with `increase` and `decrease`.
    public init(current: Index, increase: @escaping (Index) -> Index?, decrease: @escaping (Index) -> Index?) {
        self.current = current
        self.increase = increase
        self.decrease = decrease
    }

    /// The current value, then each following one, ending after the last non-nil neighbour.
    public var forward: UnfoldFirstSequence<Index> {
        sequence(first: current, next: increase)
    }

    /// The current value, then each preceding one, ending after the last non-nil neighbour.
    public var backward: UnfoldFirstSequence<Index> {
        sequence(first: current, next: decrease)
    }

    /// Steps to the next value; returns false, staying put, at a bound.
    @discardableResult
    public mutating func moveForward() -> Bool {
        guard let next = increase(current) else { return false }
        current = next
        return true
    }

    /// Steps to the previous value; returns false, staying put, at a bound.
    @discardableResult
    public mutating func moveBackward() -> Bool {
        guard let previous = decrease(current) else { return false }
        current = previous
        return true
    }

    /// Moves `count` steps (backward when negative), stopping early at a bound.
    /// - returns: how many steps were taken; less than `abs(count)` only at a bound.
    @discardableResult
    public mutating func move(by count: Int) -> Int {
        var taken = 0
        while taken < count.magnitude, count > 0 ? moveForward() : moveBackward() {
            taken += 1
        }
        return taken
    }

    /// Stands the index on `value`, keeping its actions.
    public mutating func jump(to value: Index) {
        current = value
    }
}
