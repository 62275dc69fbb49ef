import InfCalModel

/// Wall-clock times in a zone, as RFC 5545 reads them (the day arithmetic is the model's).
extension CivilTime {
    /// UTC civil seconds of the wall-clock time `local` in a zone whose offset at a UTC instant
    /// is `offset`. A time skipped by a change of offset is read with the offset before it
    /// (RFC 5545 §3.3.5); a repeated one is its first occurrence.
    public static func utc(ofLocal local: Int, offset: (Int) -> Int) -> Int {
        // The offsets a day either side: a wall-clock time is read with one of them (no zone
        // changes its offset twice in a day).
        let before = offset(local - secondsPerDay)
        let after = offset(local + secondsPerDay)
        let early = local - before
        let earlyHolds = offset(early) == before
        if before == after, earlyHolds { return early }
        let late = local - after
        let lateHolds = offset(late) == after
        switch (earlyHolds, lateHolds) {
        case (true, true): return min(early, late) // a fold: the first of the two
        case (true, false): return early
        case (false, true): return late
        case (false, false): return early // a gap: the offset in force before it
        }
    }
}
