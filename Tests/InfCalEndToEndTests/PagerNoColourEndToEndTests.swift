import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalCLI
import InfCalPager
import InfCalPTY
import Testing

/// Without colour (`--color never`, or `NO_COLOR`) the pager still tells today, the selected
/// day and the days with events apart, in every view, at 80x24 and 200x60: by attributes, not
/// colours. The selected day is reversed, today underlined, a day with events bold, as the
/// screen model reads them from the terminal's own output.
@Suite struct PagerNoColourEndToEndTests {
    typealias P = PagerEndToEndTests

    static let sizes = [TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 200, rows: 60)]

    /// Events on 5 and 20 February 2024 (all day, so the day is the same in every zone).
    static func eventsFile() throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-nocolour-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).ics")
        try Data(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:t\r\n"
            + "BEGIN:VEVENT\r\nUID:a\r\nSUMMARY:Dentist\r\nDTSTART;VALUE=DATE:20240205\r\nEND:VEVENT\r\n"
            + "BEGIN:VEVENT\r\nUID:b\r\nSUMMARY:Market\r\nDTSTART;VALUE=DATE:20240220\r\nEND:VEVENT\r\n"
            + "END:VCALENDAR\r\n").utf8).write(to: file)
        return file
    }

    /// Whether the screen shows the 16th selected (the one reversed run), the 15th as today
    /// (underlined) and the 5th and 20th as days with events (bold).
    static func marksShown(_ screen: TerminalScreen) -> Bool {
        screen.reversedTexts == ["16"] && screen.texts(.underline).contains("15")
            && screen.texts(.bold).contains("5") && screen.texts(.bold).contains("20")
            && !screen.texts(.bold).contains("16")
    }

    @Test(arguments: sizes, [["--color", "never"], ["NO_COLOR"]])
    func everyViewMarksTodayTheSelectionAndEvents(size: TerminalSize, colourOff: [String]) throws {
        let file = try Self.eventsFile()
        defer { try? FileManager.default.removeItem(at: file) }
        var environment = MonthPageEndToEndTests.utf8
        if colourOff == ["NO_COLOR"] { environment["NO_COLOR"] = "1" }
        let arguments = ["--events", file.path] + (colourOff == ["NO_COLOR"] ? [] : colourOff)
        let session = try P.start(arguments, columns: size.columns, rows: size.rows, environment: environment)
        try session.send("l")
        for view in ["month page", "strip", "year page"] {
            #expect(session.waitFor { Self.marksShown($0) && $0.line($0.rows - 1).contains(view) }, "\(view): \(session.screen.text)")
            try session.send("v")
        }
        // The week view of the 16th sets its heading apart (reversed) and today's (underlined).
        #expect(session.waitFor { screen in
            screen.line(screen.rows - 1).contains("[week]") && screen.reversedTexts.count == 1
                && (screen.reversedTexts.first?.hasSuffix(" 16") ?? false) && screen.texts(.underline).contains { $0.hasSuffix(" 15") }
        }, "week: \(session.screen.text)")
        try session.send("v")
        // The day view, opened on the 20th, names it and lists its event.
        #expect(session.waitFor { Self.marksShown($0) && $0.line($0.rows - 1).contains("month page") })
        try session.send("4l\r")
        #expect(session.waitFor { $0.contains("Tuesday 20 February 2024") && $0.contains("Market") }, "\(session.screen.text)")
        try session.send("\r")
        #expect(session.waitFor { !$0.contains("Tuesday 20 February 2024") })
        try session.send("q")
        #expect(session.waitForExit() == .exited(0))
        // Attributes only: every SGR sequence written sets or resets bold, underline or
        // reverse video, never a colour or dim.
        let output = String(decoding: session.output, as: UTF8.self)
        let sgr = try Regex("\u{1B}\\[([0-9;]*)m")
        let parameters = Set(output.matches(of: sgr).flatMap { match in
            String(output[match.range].dropFirst(2).dropLast()).split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        })
        #expect(parameters.isSubset(of: ["", "0", "1", "4", "7", "22", "24", "27"]), "\(parameters.sorted())")
    }
}
