import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalCLI
import InfCalPager
import InfCalProcess

extension Benchmark {
    // MARK: Measure 8: search

    /// The pager's `/` and `--agenda --search` over 10,000 years of a yearly rule, in process:
    /// a rule that matches and next occurs after them (every 20,000 years, so every slice of
    /// the 10,000 years is looked at before "no match before ..."), a yearly birthday found from the first year the
    /// calendar holds (4713 BC, 6,738 years before its first year), and the agenda listing that birthday for 10,000 years.
    mutating func measureSearch() {
        func store(_ rule: String) -> EventStore {
            let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:s\r\nSUMMARY:Birthday of Ana\r\nDTSTART;VALUE=DATE:20260301\r\n"
                + "RRULE:" + rule + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            return EventStore(events: EventReader.read(Array(text.utf8)).events, display: .utc)
        }
        let gregorian = MonthCalendar(.gregorian)
        func day(_ year: Int, _ month: Int, _ day: Int) -> Int { CivilTime.dayNumber(ofCivilDay: CivilTime.day(year: year, month: month, day: day)) }
        let renderer = MonthRenderer(names: CalendarNames(locale: nil, calendar: gregorian), calendar: gregorian, firstWeekday: 1)

        /// Seconds from `/birthday` Enter to the search's end, slices and all, from `from`.
        func pagerSearch(_ events: EventStore, from: Int) -> (seconds: Double, message: String)? {
            guard let month = gregorian.month(containing: from) else { return nil }
            var view = PagerView(renderer: renderer, highlightToday: false, columns: nil, box: .unicode)
            view.events = events
            var state = PagerState(calendar: gregorian, start: month, bounds: MonthBounds(), today: from)
            let begin = Processes.now()
            for key in [Key.character("/")] + "birthday".map({ Key.character($0) }) + [.enter] { _ = state.handle(key) }
            var slices = 0
            while state.search != nil, slices < 100_000 {
                view.continueSearch(&state)
                slices += 1
            }
            let end = Processes.now() - begin
            let shown = state.message?.text ?? "selected " + ISODate.text(dayNumber: state.selected)
            return (end, shown)
        }
        var never: [Double] = [], far: [Double] = [], agenda: [Double] = []
        var neverSays = "", farSays = "", lines = 0
        let barren = store("FREQ=YEARLY;INTERVAL=20000")
        let yearly = store("FREQ=YEARLY")
        for round in -1..<runs {
            if let result = pagerSearch(barren, from: day(2026, 3, 2)) {
                if round >= 0 { never.append(result.seconds) }
                neverSays = result.message
            }
            if let result = pagerSearch(yearly, from: day(-4712, 3, 1)) {
                if round >= 0 { far.append(result.seconds) }
                farSays = result.message
            }
            guard let start = gregorian.month(containing: day(2026, 1, 1)),
                  let matcher = EventMatcher("birthday") else { continue }
            let matching = yearly.restricted(to: matcher)
            let sink = LineCountingSink()
            let bounds = MonthBounds(until: day(12025, 12, 31))
            let plan = AgendaPlan(backward: false, startDay: start.firstDay, months: nil, width: nil)
            let begin = Processes.now()
            try? AgendaPrinter(locale: nil, width: nil).print(
                AgendaMonths(calendar: gregorian, start: start, bounds: bounds, store: matching, backward: false),
                store: matching, plan: plan, bounds: bounds, to: sink)
            if round >= 0 { agenda.append(Processes.now() - begin) }
            lines = sink.lines
        }
        report.rows.append(Row(measure: "pager: / over 10,000 years of a rule that next occurs after them (\(neverSays))",
                               infcal: milliseconds(median(never)), target: "< 1 s", met: median(never) < 1 ? "met" : "NOT MET"))
        report.rows.append(Row(measure: "pager: / from 4713 BC to a yearly rule's first day in 2026 (\(farSays))",
                               infcal: far.isEmpty ? "-" : milliseconds(median(far), decimals: 2), target: "< 1 s",
                               met: far.isEmpty ? "NOT RUN" : median(far) < 1 ? "met" : "NOT MET"))
        report.rows.append(Row(measure: "--agenda --search: a yearly rule's 10,000 years, \(lines) lines (in process)",
                               infcal: milliseconds(median(agenda)), target: "< 1 s", met: median(agenda) < 1 ? "met" : "NOT MET"))
    }
}

/// A sink that counts the lines written to it.
final class LineCountingSink: ByteSink {
    var lines = 0
    func write(_ bytes: [UInt8]) throws { lines += bytes.lazy.filter { $0 == 0x0A }.count }
}
