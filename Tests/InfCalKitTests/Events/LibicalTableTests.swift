import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// Every case of libical's recurrence test tables (`Tests/Fixtures/libical`, copied from
/// libical's `src/test/`, see the README there), run through infcal's engine as libical's own
/// driver (`icalrecur_test.c`) runs them: forwards from DTSTART (from START-AT where given), and
/// again from each later instance as DTSTART with COUNT reduced by as many.
///
/// One deliberate deviation: libical leaves out a DTSTART that its rule does not produce, while
/// RFC 5545 §3.8.5.3 says DTSTART "always counts as the first occurrence" (and so toward
/// COUNT). For those cases (listed in `outOfStep`, so that the list is checked too) the expected
/// instances are DTSTART and then libical's, less the last one when COUNT bounds the rule.
@Suite struct LibicalTableTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/libical")

    struct Case: CustomStringConvertible {
        var file: String
        var line: Int
        var title = ""
        var rule = ""
        var start = ""
        var startAt: String?
        var instances = ""
        var description: String { "\(file):\(line) \(title) RRULE:\(rule) DTSTART:\(start)" }
    }

    static func cases(_ file: String) -> [Case] {
        guard let text = try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8) else { return [] }
        var result: [Case] = []
        var current = Case(file: file, line: 0)
        var title = ""
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.isEmpty {
                if !current.rule.isEmpty { result.append(current) }
                current = Case(file: file, line: 0)
                continue
            }
            if line.hasPrefix("#") { title = String(line.dropFirst().trimmingSpaces); continue }
            func value(_ prefix: String) -> String? { line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : nil }
            if let rule = value("RRULE:") { current.rule = rule; current.line = number + 1; current.title = title }
            if let start = value("DTSTART:") { current.start = start }
            if let at = value("START-AT:") { current.startAt = at }
            if let instances = value("INSTANCES:") { current.instances = instances }
        }
        if !current.rule.isEmpty { result.append(current) }
        return result
    }

    /// `seconds` written as `form` is (a date, a floating or a UTC date-time).
    static func text(_ seconds: Int, like form: ICalTime.Form) -> String {
        let day = CivilTime.day(ofSeconds: seconds)
        let date = CivilTime.date(ofDay: day)
        let ymd = String(format: "%04d%02d%02d", date.year, date.month, date.day)
        if form == .date { return ymd }
        let second = seconds - day * 86_400
        return ymd + String(format: "T%02d%02d%02d", second / 3600, second / 60 % 60, second % 60) + (form == .utc ? "Z" : "")
    }

    /// infcal's instances of `rule` from `start`, from `from` on (all of them: every case has COUNT or UNTIL).
    static func expand(_ rule: RecurrenceRule, start: ICalTime, from: Int? = nil) -> [String] {
        let until = rule.until.map { until in
            until.isDate && !start.isDate ? until.seconds + CivilTime.secondsPerDay - 1 : until.seconds
        }
        let expander = RecurrenceExpander(rule: rule, start: start.seconds, isDate: start.isDate, until: until,
                                          scale: RecurrenceScales.scale(named: rule.scale))
        let end = CivilTime.day(year: 3000, month: 1, day: 1) * CivilTime.secondsPerDay
        return expander.instances(in: (from ?? start.seconds)..<end).prefix(2000).map { text($0, like: start.form) }
    }

    /// The cases whose DTSTART their rule does not produce: libical leaves it out, infcal
    /// counts it first (RFC 5545 §3.8.5.3). By file and the line of the RRULE, with why.
    static let outOfStep: [String: String] = [
        "icalrecur_test.txt:38": "12 May 1997 lies in week 19 when weeks start on Friday",
        "icalrecur_test.txt:113": "2 September 1997 is a Tuesday, not Friday the 13th",
        "icalrecur_test.txt:354": "DTSTART is in February, the rule takes May",
        "icalrecur_test.txt:359": "1 January 2019 is a Tuesday, the rule takes WE,FR",
        "icalrecur_test.txt:369": "1 January 2013 is in week 1, not 53",
        "icalrecur_test.txt:415": "20 December is day 354, not 360 or -2",
        "icalrecur_test.txt:590": "14:39 on 2 January is not among the positions BYSETPOS picks",
        "icalrecur_test.txt:661": "1 January 2023 is in week 52 of 2022, which has no week 53",
        "icalrecur_test.txt:671": "3 January 2027 is a Sunday, the rule takes Thursdays",
        "icalrecur_test.txt:681": "3 January 2027 is a Sunday, the rule takes Thursdays",
        "icalrecur_test.txt:686": "3 January 2027 is a Sunday, the rule takes Thursdays",
        "icalrecur_test_rscale.txt:23": "1 February is not the 28th or 29th",
        "icalrecur_test_rscale_withicu.txt:28": "25 October 2013 is not the 10th of a Chinese month",
        "icalrecur_test_rscale_withicu.txt:33": "25 October 2013 is not the 10th of a Chinese month",
        "icalrecur_test_rscale_withicu.txt:37": "25 October 2013 is not the 10th of a Chinese month",
        "icalrecur_test_rscale_withicu.txt:42": "25 October 2013 is not the 10th of a Chinese month",
        "icalrecur_test_rscale_withicu.txt:47": "25 October 2013 is not the 10th of a Chinese month",
        "icalrecur_test_rscale_withicu.txt:52": "25 October 2013 is not the 10th of a Chinese month",
    ]

    /// Rules libical does not implement (its answer is ` *** UNIMPLEMENTED`) but RFC 5545 allows,
    /// with infcal's answer, checked against Python's `date.isocalendar()`: 30 December where it
    /// falls in ISO week 1 (2024, 2025, 2030, 2031; in 2026 it is in week 53, else 52).
    static let unimplemented: [String: [String]] = [
        "icalrecur_test.txt:405": ["20241230", "20251230", "20301230", "20311230"],
    ]

    static let files = ["icalrecur_test.txt", "icalrecur_test_rscale.txt", "icalrecur_test_rscale_withicu.txt"]

    @Test(arguments: files)
    func everyCase(_ file: String) throws {
        let all = Self.cases(file)
        #expect(all.count >= (file == "icalrecur_test.txt" ? 146 : 10), "\(file): only \(all.count) cases read")
        var failures: [String] = []
        var foundOutOfStep: [String] = []
        for item in all {
            if item.instances.hasPrefix(" ***") {
                if let answer = Self.unimplemented["\(file):\(item.line)"] {
                    if let rule = try? RecurrenceRule.parse(item.rule), let start = ICalTime.parse(item.start, isDate: nil, zone: nil),
                       Self.expand(rule, start: start) == answer { continue }
                    failures.append("\(item): not \(answer)")
                } else if (try? RecurrenceRule.parse(item.rule)) != nil {
                    // libical rejects the rule as invalid; so must infcal.
                    failures.append("\(item): read, libical rejects it")
                }
                continue
            }
            guard let rule = try? RecurrenceRule.parse(item.rule),
                  let start = ICalTime.parse(item.start, isDate: nil, zone: nil) else {
                failures.append("\(item): not read")
                continue
            }
            let libical = item.instances.split(separator: ",").map(String.init)
            var expected = libical
            if item.startAt == nil, !libical.contains(item.start) {
                foundOutOfStep.append("\(file):\(item.line)")
                expected = [item.start] + (rule.count != nil ? Array(libical.dropLast()) : libical)
            }
            var from: Int?
            if let at = item.startAt, let atTime = ICalTime.parse(at, isDate: nil, zone: nil) {
                from = atTime.seconds
                expected = libical.filter { $0 >= at }
            }
            let found = Self.expand(rule, start: start, from: from)
            if found != expected {
                failures.append("\(item)\n  libical \(expected.prefix(12))\n  infcal  \(found.prefix(12))")
                continue
            }
            // libical's driver again from every instance as DTSTART, COUNT reduced (not with SKIP).
            guard item.startAt == nil, rule.skip == .omit else { continue }
            for (index, instance) in libical.enumerated() {
                var shifted = rule
                if let count = rule.count { shifted.count = count - index }
                guard let alternative = ICalTime.parse(instance, isDate: nil, zone: nil) else { continue }
                let rest = Array(libical[index...])
                if Self.expand(shifted, start: alternative) != rest {
                    failures.append("\(item) from DTSTART \(instance): \(Self.expand(shifted, start: alternative).prefix(6)), libical \(rest.prefix(6))")
                    break
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(all.count) cases differ:\n\(failures.joined(separator: "\n"))")
        let documented = Set(Self.outOfStep.keys.filter { $0.hasPrefix(file + ":") })
        #expect(Set(foundOutOfStep) == documented, "out-of-step cases found: \(foundOutOfStep.sorted())")
    }
}
