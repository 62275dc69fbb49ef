import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI
import InfCalProcess

extension Benchmark {
    // MARK: Measure 7: the day view

    /// Key to repaint with the day view open on a day of 30 events at 200x60, in process: the
    /// key handled, the frame composed and the bytes that bring the screen to it, as the
    /// pager's loop does for each key (the terminal's own drawing is not counted).
    mutating func measureDayView() {
        var text = "BEGIN:VCALENDAR\r\n"
        for number in 0..<30 {
            let hour = 6 + number / 2, minute = number % 2 == 0 ? "00" : "30"
            text += "BEGIN:VEVENT\r\nUID:d\(number)\r\nSUMMARY:Meeting \(number) with a longer title\r\n"
                + "DTSTART:20240215T\(hour < 10 ? "0" : "")\(hour)\(minute)00Z\r\nDURATION:PT25M\r\n"
                + "LOCATION:Room \(number)\r\nDESCRIPTION:Notes of meeting \(number)\\, over two lines\\nand a second one\r\n"
                + (number % 5 == 0 ? "RRULE:FREQ=WEEKLY;BYDAY=TH\r\n" : "") + "END:VEVENT\r\n"
        }
        text += "END:VCALENDAR\r\n"
        let gregorian = MonthCalendar(.gregorian)
        let day = CivilTime.dayNumber(ofCivilDay: CivilTime.day(year: 2024, month: 2, day: 15))
        guard let month = gregorian.month(containing: day) else { return }
        let renderer = MonthRenderer(names: CalendarNames(locale: nil, calendar: gregorian), calendar: gregorian, firstWeekday: 1)
        var view = PagerView(renderer: renderer, highlightToday: true, columns: nil, box: .unicode)
        view.events = EventStore(events: EventReader.read(Array(text.utf8)).events, display: .utc)
        var state = PagerState(calendar: gregorian, start: month, bounds: MonthBounds(), today: day)
        let size = TerminalSize(columns: 200, rows: 60)
        _ = view.handle(.enter, in: &state, size: size)
        var shown = view.frame(for: state, size: size)
        var times: [Double] = []
        // j and k in turn: each moves the highlight, so every key repaints.
        for round in -10..<max(50, runs * 10) {
            let begin = Processes.now()
            _ = view.handle(.character(round % 2 == 0 ? "j" : "k"), in: &state, size: size)
            let frame = view.frame(for: state, size: size)
            let bytes = FrameDiff.bytes(from: shown, to: frame)
            shown = frame
            if round >= 0, !bytes.isEmpty { times.append(Processes.now() - begin) }
        }
        let time = median(times)
        report.rows.append(Row(measure: "pager: key to repaint, day view of 30 events at 200x60 (in process)",
                               infcal: milliseconds(time, decimals: 2), target: "< 2 ms", met: time < 0.002 ? "met" : "NOT MET"))
    }
}
