import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// The month page without a terminal: its layout is arithmetic on a size, its lines text.
@Suite struct MonthPageTests {
    typealias F = PagerFixture

    /// The page of `arguments` (a pager run: a terminal, UTF-8, today 2024-02-15) as the pager
    /// draws it at `size`.
    static func frame(_ arguments: [String], size: TerminalSize, utf8: Bool = true) throws -> Frame {
        let variables = ["TERM": "xterm"].merging(utf8 ? ["LC_CTYPE": "C.UTF-8"] : [:]) { $1 }
        let environment = RunEnvironment(variables: variables, stdoutIsTerminal: true, terminalWidth: size.columns,
                                         localToday: (2024, 2, 15), keyboardIsAvailable: true)
        let configuration = try Configuration.resolve(ArgumentParser.parse(arguments + ["--color", "never"]), environment: environment)
        let view = PagerView(configuration: configuration)
        let state = PagerState(calendar: configuration.calendar, start: configuration.start, bounds: configuration.bounds,
                               today: configuration.today, view: configuration.page.initialView)
        // Today and the selected day are attributes in the pager, with colour or without:
        // the layout is read without them.
        var frame = view.frame(for: state, size: size)
        frame.lines = frame.lines.map(plain)
        return frame
    }

    /// `line` without its SGR escape sequences.
    static func plain(_ line: String) -> String {
        line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    /// The columns where `line` has a vertical line of the grid.
    static func bars(_ line: String) -> [Int] {
        var bars: [Int] = []
        var column = 0
        for character in line {
            if "│|┌┬┐├┼┤└┴┘+".contains(character) { bars.append(column) }
            column += DisplayWidth.of(String(character))
        }
        return bars
    }

    // MARK: Layout

    /// Seven equal columns and six equal week rows spanning the screen; the margins on either
    /// side differ by at most one cell, above and below by at most one line.
    @Test(arguments: [(80, 24), (120, 40), (200, 60), (400, 150), (22, 17), (23, 18), (81, 25)])
    func fillsTheScreen(columns: Int, rows: Int) throws {
        let room = TerminalSize(columns: columns, rows: rows - 1)
        let layout = try #require(MonthPageLayout.filling(room, numberWidth: 2, weekColumnWidth: 0))
        let right = columns - layout.left - layout.gridWidth
        #expect(layout.gridWidth + 6 >= columns - 1, "the grid leaves less than a cell's width")
        #expect(right >= 0 && abs(right - layout.left) <= 1)
        #expect(layout.cellWidth == (columns - 1) / 7)
        #expect(layout.cellHeight == (rows - 1 - 3) / 6)
        let bottom = room.rows - layout.top - layout.height
        #expect(bottom >= 0 && abs(bottom - layout.top) <= 1)

        let frame = try Self.frame(["--paged"], size: TerminalSize(columns: columns, rows: rows))
        let gridRows = frame.lines.indices.filter { !Self.bars(frame.lines[$0]).isEmpty }
        #expect(gridRows.count == layout.height - 2)
        let expectedBars = (0...7).map { layout.left + $0 * layout.cellWidth }
        for row in gridRows { #expect(Self.bars(frame.lines[row]) == expectedBars, "row \(row): \(frame.lines[row])") }
        // Six week rows: seven horizontal rules, equally spaced.
        let rules = gridRows.filter { frame.lines[$0].contains("─") }
        #expect(rules.count == 7)
        #expect(Set(zip(rules, rules.dropFirst()).map { $1 - $0 }) == [layout.cellHeight])
        #expect(frame.lines.contains { $0.contains("February 2024") })
        for line in frame.lines { #expect(visibleWidth(line) <= columns) }
    }

    @Test func smallestSize() {
        #expect(MonthPageLayout.smallest(numberWidth: 2, weekColumnWidth: 0) == TerminalSize(columns: 22, rows: 15))
        #expect(MonthPageLayout.filling(TerminalSize(columns: 22, rows: 15), numberWidth: 2, weekColumnWidth: 0) != nil)
        #expect(MonthPageLayout.filling(TerminalSize(columns: 21, rows: 15), numberWidth: 2, weekColumnWidth: 0) == nil)
        #expect(MonthPageLayout.filling(TerminalSize(columns: 22, rows: 14), numberWidth: 2, weekColumnWidth: 0) == nil)
        // Days of the year take three cells, week numbers three more.
        #expect(MonthPageLayout.smallest(numberWidth: 3, weekColumnWidth: 3) == TerminalSize(columns: 32, rows: 15))
        // A screen beyond any real one draws a bounded grid in wide margins.
        let huge = MonthPageLayout.filling(TerminalSize(columns: 60_000, rows: 60_000), numberWidth: 2, weekColumnWidth: 0)
        #expect(huge.map { $0.gridWidth <= 2_000 && $0.height <= 1_000 } == true)
    }

    /// Below the page's smallest size the compact grid shows; below that, one line.
    @Test func smallerScreensFallBack() throws {
        let compact = try Self.frame(["--paged"], size: TerminalSize(columns: 21, rows: 16))
        #expect(compact.lines.contains { $0.contains("Su Mo Tu We Th Fr Sa") })
        #expect(!compact.lines.contains { $0.contains("│") })
        let page = try Self.frame(["--paged"], size: TerminalSize(columns: 22, rows: 16))
        #expect(page.lines.contains { $0.contains("│") })
        let message = try Self.frame(["--paged"], size: TerminalSize(columns: 19, rows: 16))
        #expect(message.lines[0] == "need 20 columns")
    }

    // MARK: Text

    @Test func weekdayNamesAsTheCellsAllow() {
        let page = MonthPage(renderer: F.view().renderer, box: .ascii, weekendDays: [1, 7], color: false)
        #expect(page.weekdayNames(inside: 9)[3] == "Wednesday")
        #expect(page.weekdayNames(inside: 8)[3] == "Wed")
        #expect(page.weekdayNames(inside: 2)[3] == "We")
    }

    @Test func asciiWithoutUTF8() throws {
        let frame = try Self.frame(["--paged"], size: TerminalSize(columns: 80, rows: 24), utf8: false)
        #expect(frame.lines[3] == " +----------+----------+----------+----------+----------+----------+----------+")
        #expect(!frame.lines.joined().unicodeScalars.contains { !$0.isASCII })
        #expect(LocaleSetting.usesUTF8(["LANG": "en_US.UTF-8"]))
        #expect(LocaleSetting.usesUTF8(["LC_CTYPE": "de_DE.utf8", "LANG": "C"]))
        #expect(!LocaleSetting.usesUTF8(["LC_ALL": "C", "LC_CTYPE": "de_DE.UTF-8"]))
        #expect(!LocaleSetting.usesUTF8(["LANG": "de_DE.ISO-8859-1"]))
        #expect(!LocaleSetting.usesUTF8([:]))
    }

    @Test func todayReversedAndWeekendDimOnlyWithColour() throws {
        let renderer = MonthRenderer(names: CalendarNames(locale: nil, calendar: F.gregorian), calendar: F.gregorian,
                                     firstWeekday: 1, highlightedDay: try F.day(2024, 2, 15))
        let month = try #require(F.gregorian.month(containing: try F.day(2024, 2, 1)))
        let layout = try #require(MonthPageLayout.filling(TerminalSize(columns: 80, rows: 23), numberWidth: 2, weekColumnWidth: 0))
        let coloured = MonthPage(renderer: renderer, box: .unicode, weekendDays: [1, 7], color: true).lines(for: month, layout: layout)
        let text = coloured.joined(separator: "\n")
        #expect(text.contains("\u{1B}[7m15\u{1B}[27m"))
        // Saturday the 3rd and Sunday the 4th, and the names over them.
        #expect(text.contains("\u{1B}[2m3\u{1B}[22m") && text.contains("\u{1B}[2m4\u{1B}[22m"))
        #expect(text.contains("\u{1B}[2mSunday\u{1B}[22m") && !text.contains("\u{1B}[2mMonday"))
        for line in coloured { #expect(visibleWidth(line) <= 80) }
        let plain = MonthPage(renderer: renderer, box: .unicode, weekendDays: [1, 7], color: false).lines(for: month, layout: layout)
        #expect(!plain.joined().contains("\u{1B}"))
        #expect(plain.count == coloured.count)
    }

    @Test func weekNumbersAndDaysOfTheYear() throws {
        let frame = try Self.frame(["--paged", "-w", "-j", "--monday"], size: TerminalSize(columns: 80, rows: 24))
        // ISO weeks 5 to 9 of 2024 (1 February is a Thursday); days 32 to 60.
        let numbers = frame.lines.filter { $0.contains("│") && !$0.contains("─") && $0.contains("3") }
        #expect(numbers.first?.hasSuffix(" 5 │         │         │         │      32 │      33 │      34 │      35 │") == true, "\(numbers)")
        #expect(frame.lines.joined().contains(" 32 │") && frame.lines.joined().contains(" 60 │"))
        // The page's six rows: the week column holds `ncal -w -M 2 2024`'s weeks 5 to 9, and
        // the sixth row, blank, none.
        let rows = frame.lines.filter { $0.contains("│") && !$0.contains("─") }
        let weeks = rows.compactMap { line -> String? in
            guard let bar = line.firstIndex(of: "│") else { return nil }
            let column = line[..<bar].trimmingCharacters(in: .whitespaces)
            return column
        }.filter { !$0.isEmpty }
        #expect(weeks == ["5", "6", "7", "8", "9"], "\(rows)")
    }

    /// The weekend comes from the locale (Foundation's CLDR data): Friday alone in Iran.
    @Test func weekendOfTheLocale() {
        #expect(LocaleSetting.weekendDays(of: nil) == [1, 7])
        #expect(LocaleSetting.weekendDays(of: Locale(identifier: "de_DE")) == [1, 7])
        #expect(LocaleSetting.weekendDays(of: Locale(identifier: "fa_IR")) == [6])
    }

    @Test func thePagerOpensOnTheMonthPageOrWithColumnsNOnTheStrip() throws {
        typealias O = PagedOptionTests
        func resolve(_ arguments: [String]) throws -> Configuration {
            try Configuration.resolve(try ArgumentParser.parse(arguments), environment: O.environment())
        }
        #expect(try resolve([]).page.initialView == .monthPage)
        #expect(try resolve(["--paged", "--columns", "auto"]).page.initialView == .monthPage)
        #expect(try resolve(["--paged", "--columns", "2"]).page.initialView == .strip)
        #expect(try resolve(["-c", "4"]).page.initialView == .strip)
        #expect(try resolve(["--paged", "--mouse"]).page.mouse)
        #expect(try !resolve(["--paged"]).page.mouse)
        // --wall prints: at a terminal, with no direction, the --from month.
        #expect(try resolve(["--wall"]).mode == .single)
        #expect(throws: UsageError.conflict("--paged", "--wall")) { try resolve(["--paged", "--wall"]) }
    }

    @Test func wallPagesAreAsTallAsTheirCells() throws {
        let configuration = try Fixture.resolve(["--wall", "--width", "60", "--from", "2024-03", "--forward", "2"])
        let printer = try #require(configuration.makePagePrinter())
        #expect(printer.layout.cellWidth == 8 && printer.layout.cellHeight == 2)
        let text = try Fixture.output(["--wall", "--width", "60", "--from", "2024-03", "--forward", "2"])
        let pages = text.components(separatedBy: "\n\n")
        #expect(pages.count == 2)
        #expect(pages[0].split(separator: "\n").count == 2 + 13)
        #expect(!text.contains("\u{1B}"))
        for line in text.split(separator: "\n") { #expect(DisplayWidth.of(line) <= 60) }
    }

    @Test func wallWidthComesFromTheOptionThenColumnsThenTheTerminal() throws {
        #expect(try Fixture.resolve(["--wall", "--width", "100"]).page.wallWidth == 100)
        #expect(try Fixture.resolve(["--wall"], environment: Fixture.environment(variables: ["COLUMNS": "90"])).page.wallWidth == 90)
        #expect(try Fixture.resolve(["--wall"], environment: Fixture.environment(terminal: true, width: 120)).page.wallWidth == 120)
        #expect(try Fixture.resolve(["--wall"]).page.wallWidth == 80)
        // A terminal narrower than a page gets the narrowest page.
        #expect(try Fixture.resolve(["--wall"], environment: Fixture.environment(variables: ["COLUMNS": "10"])).page.wallWidth == 22)
    }

    @Test(arguments: [
        (["--wall", "--width", "21"], "invalid value '21' for --width: expected a width in columns from 22 to 10000"),
        (["--wall", "-j", "-w", "--width", "31"], "invalid value '31' for --width: expected a width in columns from 32 to 10000"),
        (["--width", "80"], "--width is not available: it sets the width of --wall pages and --week grids"),
        (["--wall", "--year"], "--wall cannot be used together with --year"),
        (["--wall", "--columns", "2"], "--wall cannot be used together with --columns"),
    ])
    func wallRefusals(arguments: [String], message: String) {
        #expect(throws: UsageError.self) { try Fixture.resolve(arguments) }
        do {
            _ = try Fixture.resolve(arguments)
        } catch {
            #expect(error.description == message)
        }
    }

    /// Titles as the stream has them, in any calendar: a Chinese leap month, a Japanese era;
    /// wide names measured in cells, so the grid stays whole.
    @Test(arguments: [
        (["--calendar", "chinese", "--locale", "zh_CN", "--from", "2023-03-25"], "2023年闰2月"),
        (["--calendar", "japanese", "--locale", "ja_JP", "--from", "2019-05"], "令和元年5月"),
        (["--calendar", "hebrew", "--from", "2024-03-15"], "Adar II 5784"),
    ])
    func titlesOfEveryCalendar(arguments: [String], title: String) throws {
        let frame = try Self.frame(["--paged"] + arguments, size: TerminalSize(columns: 100, rows: 30))
        #expect(frame.lines[0].trimmingCharacters(in: .whitespaces) == title || frame.lines[1].trimmingCharacters(in: .whitespaces) == title,
                "\(frame.lines.prefix(3))")
        let edges = frame.lines.map(Self.bars).filter { !$0.isEmpty }
        #expect(edges.count == 6 * 4 + 1 && Set(edges).count == 1)
        for line in frame.lines { #expect(visibleWidth(line) <= 100) }
    }

    // MARK: Goldens

    /// The month page at 80x24 in four locales, February 2024 (today the 15th, no colour).
    /// Checked by eye against `ncal -C 2 2024` (and `ncal -C -M` for Monday first), which
    /// puts 1 February 2024 on a Thursday: the 1 stands under Thursday (Donnerstag, 木曜日,
    /// پنجشنبه), in column 5 with Sunday first (en_US), 4 with Monday first (de_DE), 5 with
    /// Sunday first (ja_JP) and 6 with Saturday first (fa_IR), and 29 February under the same
    /// weekday as 1 February (ncal: Thursday).
    @Test(arguments: [
        ("en_US", """

                                         February 2024
            Sunday     Monday    Tuesday   Wednesday   Thursday    Friday    Saturday
         ┌──────────┬──────────┬──────────┬──────────┬──────────┬──────────┬──────────┐
         │          │          │          │          │        1 │        2 │        3 │
         │          │          │          │          │          │          │          │
         ├──────────┼──────────┼──────────┼──────────┼──────────┼──────────┼──────────┤
         │        4 │        5 │        6 │        7 │        8 │        9 │       10 │
         │          │          │          │          │          │          │          │
         ├──────────┼──────────┼──────────┼──────────┼──────────┼──────────┼──────────┤
         │       11 │       12 │       13 │       14 │      [15]│       16 │       17 │
         │          │          │          │          │          │          │          │
         ├──────────┼──────────┼──────────┼──────────┼──────────┼──────────┼──────────┤
         │       18 │       19 │       20 │       21 │       22 │       23 │       24 │
         │          │          │          │          │          │          │          │
         ├──────────┼──────────┼──────────┼──────────┼──────────┼──────────┼──────────┤
         │       25 │       26 │       27 │       28 │       29 │          │          │
         │          │          │          │          │          │          │          │
         ├──────────┼──────────┼──────────┼──────────┼──────────┼──────────┼──────────┤
         │          │          │          │          │          │          │          │
         │          │          │          │          │          │          │          │
         └──────────┴──────────┴──────────┴──────────┴──────────┴──────────┴──────────┘

        February 2024  [month page]                      n next  v view  ? help  q quit
        """),
        ("de_DE", """

                                          Februar 2024
            Montag    Dienstag   Mittwoch  Donnerstag  Freitag    Samstag    Sonntag
         ┌──────────┬──────────┬──────────┬──────────┬──────────┬──────────┬──────────┐
         │          │          │          │        1 │        2 │        3 │        4 │
         │          │          │          │          │          │          │          │
         ├──────────┼──────────┼──────────┼──────────┼──────────┼──────────┼──────────┤
         │        5 │        6 │        7 │        8 │        9 │       10 │       11 │
         │          │          │          │          │          │          │          │
         ├──────────┼──────────┼──────────┼──────────┼──────────┼──────────┼──────────┤
         │       12 │       13 │       14 │      [15]│       16 │       17 │       18 │
         │          │          │          │          │          │          │          │
         ├──────────┼──────────┼──────────┼──────────┼──────────┼──────────┼──────────┤
         │       19 │       20 │       21 │       22 │       23 │       24 │       25 │
         │          │          │          │          │          │          │          │
         ├──────────┼──────────┼──────────┼──────────┼──────────┼──────────┼──────────┤
         │       26 │       27 │       28 │       29 │          │          │          │
         │          │          │          │          │          │          │          │
         ├──────────┼──────────┼──────────┼──────────┼──────────┼──────────┼──────────┤
         │          │          │          │          │          │          │          │
         │          │          │          │          │          │          │          │
         └──────────┴──────────┴──────────┴──────────┴──────────┴──────────┴──────────┘

        Februar 2024  [month page]                       n next  v view  ? help  q quit
        """),
        ("ja_JP", """

                                           2024年2月
            日曜日     月曜日     火曜日     水曜日     木曜日     金曜日     土曜日
         ┌──────────┬──────────┬──────────┬──────────┬──────────┬──────────┬──────────┐
         │          │          │          │          │        1 │        2 │        3 │
         │          │          │          │          │          │          │          │
         ├──────────┼──────────┼──────────┼──────────┼──────────┼──────────┼──────────┤
         │        4 │        5 │        6 │        7 │        8 │        9 │       10 │
         │          │          │          │          │          │          │          │
         ├──────────┼──────────┼──────────┼──────────┼──────────┼──────────┼──────────┤
         │       11 │       12 │       13 │       14 │      [15]│       16 │       17 │
         │          │          │          │          │          │          │          │
         ├──────────┼──────────┼──────────┼──────────┼──────────┼──────────┼──────────┤
         │       18 │       19 │       20 │       21 │       22 │       23 │       24 │
         │          │          │          │          │          │          │          │
         ├──────────┼──────────┼──────────┼──────────┼──────────┼──────────┼──────────┤
         │       25 │       26 │       27 │       28 │       29 │          │          │
         │          │          │          │          │          │          │          │
         ├──────────┼──────────┼──────────┼──────────┼──────────┼──────────┼──────────┤
         │          │          │          │          │          │          │          │
         │          │          │          │          │          │          │          │
         └──────────┴──────────┴──────────┴──────────┴──────────┴──────────┴──────────┘

        2024年2月  [month page]                          n next  v view  ? help  q quit
        """),
        ("fa_IR", """

                                           2024 فوریهٔ
             شنبه      یکشنبه     دوشنبه     سه‌شنبه    چهارشنبه   پنجشنبه      جمعه
         ┌──────────┬──────────┬──────────┬──────────┬──────────┬──────────┬──────────┐
         │          │          │          │          │          │        1 │        2 │
         │          │          │          │          │          │          │          │
         ├──────────┼──────────┼──────────┼──────────┼──────────┼──────────┼──────────┤
         │        3 │        4 │        5 │        6 │        7 │        8 │        9 │
         │          │          │          │          │          │          │          │
         ├──────────┼──────────┼──────────┼──────────┼──────────┼──────────┼──────────┤
         │       10 │       11 │       12 │       13 │       14 │      [15]│       16 │
         │          │          │          │          │          │          │          │
         ├──────────┼──────────┼──────────┼──────────┼──────────┼──────────┼──────────┤
         │       17 │       18 │       19 │       20 │       21 │       22 │       23 │
         │          │          │          │          │          │          │          │
         ├──────────┼──────────┼──────────┼──────────┼──────────┼──────────┼──────────┤
         │       24 │       25 │       26 │       27 │       28 │       29 │          │
         │          │          │          │          │          │          │          │
         ├──────────┼──────────┼──────────┼──────────┼──────────┼──────────┼──────────┤
         │          │          │          │          │          │          │          │
         │          │          │          │          │          │          │          │
         └──────────┴──────────┴──────────┴──────────┴──────────┴──────────┴──────────┘

        2024 فوریهٔ  [month page]                         n next  v view  ? help  q quit
        """),
    ])
    func golden(locale: String, expected: String) throws {
        let frame = try Self.frame(["--paged", "--locale", locale], size: TerminalSize(columns: 80, rows: 24))
        let text = frame.lines.map(MonthPage.trimmed).joined(separator: "\n")
        #expect(text == expected)
    }
}
