import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// Calendars' colours, and their names and colours in every view.
@Suite struct NamedCalendarsTests {
    // MARK: Colours

    @Test func colourSettings() {
        #expect(CalendarColor(setting: "red") == .indexed(1))
        #expect(CalendarColor(setting: "White") == .indexed(7))
        #expect(CalendarColor(setting: "bright-blue") == .indexed(12))
        #expect(CalendarColor(setting: "0") == .indexed(0))
        #expect(CalendarColor(setting: "255") == .indexed(255))
        #expect(CalendarColor(setting: "#FF8800") == .rgb(255, 136, 0))
        // CSS Color Module Level 3's extended keywords: teal is #008080, rebeccapurple is
        // Level 4's and not among them.
        #expect(CalendarColor(setting: "teal") == .rgb(0, 0x80, 0x80))
        for bad in ["", "256", "-1", "0x10", "#fff", "#12345g", "bright-", "bright-teal", "rebeccapurple", "red!"] {
            #expect(CalendarColor(setting: bad) == nil, "\(bad)")
        }
    }

    @Test func colourProperties() {
        // RFC 7986 section 5.9's example: COLOR:turquoise (CSS: #40e0d0).
        #expect(CalendarColor(property: "turquoise") == .rgb(0x40, 0xe0, 0xd0))
        // Apple's calendars write #RRGGBB, some with an alpha byte.
        #expect(CalendarColor(property: "#1BADF8") == .rgb(0x1b, 0xad, 0xf8))
        #expect(CalendarColor(property: "#1BADF8FF") == .rgb(0x1b, 0xad, 0xf8))
        #expect(CalendarColor(property: "red") == .rgb(255, 0, 0))
        #expect(CalendarColor(property: "3") == nil)
        // Every keyword the table holds reads as itself; the table holds CSS3's 147.
        #expect(CSSColors.table.count == 147)
        #expect(zip(CSSColors.table, CSSColors.table.dropFirst()).allSatisfy { $0.name < $1.name })
    }

    @Test func nearestOfTheTwoHundredFiftySix() {
        // xterm's palette (256colres.pl): 16-231 the cube of 0, 95, 135, 175, 215, 255,
        // 232-255 greys 8, 18, ... 238. Each colour that is in it maps to itself.
        #expect(CalendarColor.nearestIndex(0xff, 0x87, 0x00) == 208)
        #expect(CalendarColor.nearestIndex(0x00, 0xaf, 0xff) == 39)
        #expect(CalendarColor.nearestIndex(0x00, 0x00, 0x00) == 16)
        #expect(CalendarColor.nearestIndex(0xff, 0xff, 0xff) == 231)
        #expect(CalendarColor.nearestIndex(0x08, 0x08, 0x08) == 232)
        #expect(CalendarColor.nearestIndex(0x76, 0x76, 0x76) == 243)
        #expect(CalendarColor.nearestIndex(0xee, 0xee, 0xee) == 255)
        // Between: #ff8800 is nearest #ff8700 (208), #1badf8 nearest #00afff (39), and
        // #7f7f7f nearest grey #808080 (244) rather than the cube's #878787 (102).
        #expect(CalendarColor.nearestIndex(0xff, 0x88, 0x00) == 208)
        #expect(CalendarColor.nearestIndex(0x1b, 0xad, 0xf8) == 39)
        #expect(CalendarColor.nearestIndex(0x7f, 0x7f, 0x7f) == 244)
    }

    @Test func foregroundSequences() {
        // ECMA-48 SGR: 30-37 and 90-97 the sixteen, 38;5;N the palette, 38;2;R;G;B direct.
        #expect(CalendarColor.indexed(1).foreground(trueColor: true) == "\u{1b}[31m")
        #expect(CalendarColor.indexed(12).foreground(trueColor: false) == "\u{1b}[94m")
        #expect(CalendarColor.indexed(208).foreground(trueColor: true) == "\u{1b}[38;5;208m")
        #expect(CalendarColor.rgb(255, 136, 0).foreground(trueColor: true) == "\u{1b}[38;2;255;136;0m")
        #expect(CalendarColor.rgb(255, 136, 0).foreground(trueColor: false) == "\u{1b}[38;5;208m")
    }

    // MARK: The views

    static let home = """
        BEGIN:VCALENDAR
        X-WR-CALNAME:Family
        COLOR:turquoise
        BEGIN:VEVENT
        UID:1
        DTSTART;VALUE=DATE:20240305
        SUMMARY:Dentist
        END:VEVENT
        END:VCALENDAR

        """
    static let work = """
        BEGIN:VCALENDAR
        BEGIN:VEVENT
        UID:2
        DTSTART:20240306T090000Z
        DTEND:20240306T100000Z
        SUMMARY:Standup
        END:VEVENT
        END:VCALENDAR

        """

    /// A store of the two calendars, `home` without a configured colour (its COLOR counts),
    /// `work` orange.
    func store(names: [String?] = ["home", "work"]) -> EventStore {
        let files = [EventReader.read(Array(Self.home.utf8)), EventReader.read(Array(Self.work.utf8))]
        let calendars = [EventCalendar(name: names[0], color: files[0].calendarColor),
                         EventCalendar(name: names[1], color: .rgb(255, 136, 0))]
        return EventStore(events: files[0].events + files[1].events, display: .utc, sources: ["/h.ics", "/w.ics"],
                          calendars: calendars, calendarOfEvent: [0, 1])
    }

    static let march = EventFixture.day(2024, 3, 1)..<EventFixture.day(2024, 4, 1)

    @Test func occurrencesCarryTheirCalendar() {
        let found = store().occurrences(startingOn: Self.march)
        #expect(found.map(\.calendarName) == ["home", "work"])
        #expect(found.map(\.calendar) == [0, 1])
        #expect(found.map(\.color) == [.rgb(0x40, 0xe0, 0xd0), .rgb(255, 136, 0)])
        // Without a configured name the file's X-WR-CALNAME names it.
        #expect(store(names: [nil, nil]).occurrences(startingOn: Self.march).map(\.calendarName) == ["Family", nil])
        let hiding = store()
        hiding.hidden = [0]
        #expect(hiding.occurrences(startingOn: Self.march).map(\.summary) == ["Standup"])
        #expect(hiding.occurrencesByDay(Self.march).values.flatMap { $0 }.map(\.summary) == ["Standup"])
    }

    @Test func theAgendaHasAColumnOfNames() {
        let events = store()
        var printer = AgendaPrinter(locale: nil, width: nil)
        printer.calendarWidth = events.calendarWidth
        #expect(events.occurrences(startingOn: Self.march).map(printer.line) == [
            "2024-03-05 Tue  all-day      home  Dentist",
            "2024-03-06 Wed  09:00-10:00  work  Standup",
        ])
        printer.colors = false
        #expect(events.occurrences(startingOn: Self.march).map(printer.line) == [
            "2024-03-05 Tue  all-day      \u{1b}[38;5;80mhome  Dentist\u{1b}[39m",
            "2024-03-06 Wed  09:00-10:00  \u{1b}[38;5;208mwork  Standup\u{1b}[39m",
        ])
        // Cut to a terminal's width before the colour goes in, so the width holds.
        var narrow = AgendaPrinter(locale: nil, width: 33)
        narrow.calendarWidth = 4
        narrow.colors = true
        #expect(narrow.line(events.occurrences(startingOn: Self.march)[1]) == "2024-03-06 Wed  09:00-10:00  \u{1b}[38;2;255;136;0mwork\u{1b}[39m")
        // No names, no column: the lines of a run without a config file.
        #expect(store(names: [nil, nil]).calendarWidth == 0)
    }

    /// A name with a tab and a line break (a CalDAV server's display name) is shown with
    /// spaces for them, and the column is as wide as the name shown, so the summaries align.
    @Test func theColumnIsAsWideAsTheNamesShown() {
        let events = store(names: ["team\tcal\nx", "home"])
        var printer = AgendaPrinter(locale: nil, width: nil)
        printer.calendarWidth = events.calendarWidth
        #expect(events.occurrences(startingOn: Self.march).map(printer.line) == [
            "2024-03-05 Tue  all-day      team cal x  Dentist",
            "2024-03-06 Wed  09:00-10:00  home        Standup",
        ])
    }

    @Test func theStreamListsNamesAndColours() throws {
        let environment = Fixture.environment(variables: ["TERM": "xterm"])
        let configuration = try Configuration.resolve(ArgumentParser.parse(["--from", "2024-03", "-1"]), environment: environment)
        var printer = configuration.makePrinter()
        printer.events = StreamEvents(store: store(), marksDays: false, locale: nil)
        let output = CollectingSink()
        try printer.print(configuration.months(), to: output)
        let lines = String(decoding: output.bytes, as: UTF8.self).split(separator: "\n").suffix(2)
        // Into a pipe the lines are whole; at a terminal 20 columns wide they are cut.
        #expect(Array(lines) == [" 5 Tue  home  Dentist", " 6 Wed  09:00  work  Standup"])
        printer.events?.width = 20
        let narrow = CollectingSink()
        try printer.print(configuration.months(), to: narrow)
        let cut = String(decoding: narrow.bytes, as: UTF8.self).split(separator: "\n").suffix(2)
        #expect(Array(cut) == [" 5 Tue  home  Denti…", " 6 Wed  09:00  work…"])
    }

    @Test func theMonthPageColoursEachEvent() throws {
        let renderer = MonthRenderer(names: CalendarNames(locale: nil, calendar: Fixture.gregorian), calendar: Fixture.gregorian,
                                     firstWeekday: 1)
        var colored = MonthPage(renderer: renderer, box: .ascii, weekendDays: [1, 7], color: true)
        colored.events = store().occurrencesByDay(Self.march)
        colored.trueColor = true
        let month = try #require(Fixture.month(2024, 3))
        // Cells 11 wide (10 inside), 4 high: two lines of events under the numbers.
        let layout = try #require(MonthPageLayout.filling(TerminalSize(columns: 78, rows: 27), numberWidth: 2, weekColumnWidth: 0))
        let text = colored.lines(for: month, layout: layout).joined(separator: "\n")
        #expect(text.contains("| \u{1b}[38;2;64;224;208mDentist\u{1b}[39m  |"))
        // Cut text keeps a space from both cell lines, as the day numbers do.
        #expect(text.contains("| \u{1b}[38;2;255;136;0m09:00 S…\u{1b}[39m |"))
        // Without colour the cells hold the text alone.
        var plain = MonthPage(renderer: renderer, box: .ascii, weekendDays: [1, 7], color: false)
        plain.events = colored.events
        let plainText = plain.lines(for: month, layout: layout).joined(separator: "\n")
        #expect(plainText.contains("| Dentist  |"))
        #expect(!plainText.contains("\u{1b}"))
    }

    @Test func theDayViewNamesTheCalendar() throws {
        let events = store()
        let day = EventFixture.day(2024, 3, 6)
        let month = try #require(Fixture.month(2024, 3))
        let view = DayView(day: day, month: month, names: CalendarNames(locale: nil, calendar: Fixture.gregorian),
                           calendar: Fixture.gregorian, occurrences: events.occurrencesByDay(day..<(day + 1))[day] ?? [],
                           store: events, width: 60, highlighted: 0)
        #expect(view.lines.contains("    Calendar: work"))
        // Without a configured name, the file's X-WR-CALNAME.
        let unnamed = store(names: [nil, nil])
        let dentist = EventFixture.day(2024, 3, 5)
        let other = DayView(day: dentist, month: month, names: CalendarNames(locale: nil, calendar: Fixture.gregorian),
                            calendar: Fixture.gregorian, occurrences: unnamed.occurrencesByDay(dentist..<(dentist + 1))[dentist] ?? [],
                            store: unnamed, width: 60, highlighted: 0)
        #expect(other.lines.contains("    Calendar: Family"))
    }

    @Test func jsonNamesTheCalendar() {
        let out = ByteBuffer()
        JSONLinesPrinter.appendOccurrence(store().occurrences(startingOn: Self.march)[1], to: out)
        #expect(String(decoding: out.bytes, as: UTF8.self)
                == #"{"start":"2024-03-06T09:00:00+00:00","end":"2024-03-06T10:00:00+00:00","allDay":false,"summary":"Standup","uid":"2","source":"/w.ics","calendarName":"work"}"#)
    }
}
