import Foundation
import Testing
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI

#if canImport(Glibc)
import Glibc
#endif

/// Calendars, locales and layouts of the built binary against independent implementations:
/// Python's datetime and calendar modules, `ncal`, and glibc's wcwidth. Each skips, saying so,
/// when its oracle is missing.
@Suite struct CalendarOracleTests {
    static let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
        ?? ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map { "\($0)/python3" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }

    static func runPython(_ script: String) throws -> String {
        try BinaryRunner.runProgram(URL(fileURLWithPath: python ?? "/usr/bin/python3"), ["-c", script], environment: [:], deadline: 60).stdout
    }

    /// Monday-first rows are whole ISO weeks: every day of a row must be in the week the row
    /// shows, by Python's date.isocalendar(), across the year ends 2020 to 2027.
    @Test(.enabled(if: python != nil, "python3 is not installed; skipping the ISO week comparison"))
    func isoWeeksMatchPython() throws {
        let weeks = try Self.runPython("""
            import datetime
            d = datetime.date(2019, 12, 1)
            while d <= datetime.date(2028, 1, 31):
                print(d.isoformat(), d.isocalendar()[1])
                d += datetime.timedelta(days=1)
            """)
        var isoWeek: [String: Int] = [:]
        for line in weeks.split(separator: "\n") {
            let parts = line.split(separator: " ")
            isoWeek[String(parts[0])] = Int(parts[1])
        }
        #expect(isoWeek.count > 2900)
        let result = try BinaryRunner.run(["--from", "2019-12", "--forward", "98", "--monday", "--week-numbers"])
        var checkedRows = 0
        for (offset, month) in result.stdout.components(separatedBy: "\n\n").enumerated() {
            let index = 11 + offset // months from January 2019
            let (year, monthNumber) = (2019 + index / 12, index % 12 + 1)
            for row in month.split(separator: "\n").dropFirst(2) {
                let fields = row.split(separator: " ").compactMap { Int($0) }
                guard let shown = fields.first else { continue }
                for day in fields.dropFirst() {
                    let key = String(format: "%04d-%02d-%02d", year, monthNumber, day)
                    #expect(isoWeek[key] == shown, "\(key) is in ISO week \(isoWeek[key] ?? -1), row shows \(shown)")
                }
                checkedRows += 1
            }
        }
        #expect(checkedRows > 450)
    }

    /// Rows that start on any other weekday show the ISO week most of their days are in: the
    /// week Python's isocalendar() gives four or more of the row's seven days. (ncal -w -S is
    /// no oracle here: it numbers the row from 28 December 2025 as week 53 of 2025, a year of
    /// 52 ISO weeks.)
    @Test(.enabled(if: python != nil, "python3 is not installed; skipping the ISO week comparison"),
          arguments: ["sunday", "tuesday", "wednesday", "thursday", "friday", "saturday"])
    func otherRowsShowTheirMajorityWeek(firstWeekday: String) throws {
        let weeks = try Self.runPython("""
            import datetime
            d = datetime.date(2019, 11, 20)
            while d <= datetime.date(2028, 2, 10):
                print(d.toordinal(), d.isocalendar()[1])
                d += datetime.timedelta(days=1)
            """)
        var isoWeek: [Int: Int] = [:]
        for line in weeks.split(separator: "\n") {
            let parts = line.split(separator: " ").compactMap { Int($0) }
            isoWeek[parts[0]] = parts[1]
        }
        // Python's ordinal of 2019-12-01, to turn a month's day into an ordinal.
        let december2019 = try Int(Self.runPython("import datetime; print(datetime.date(2019, 12, 1).toordinal())")
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        let result = try BinaryRunner.run(["--from", "2019-12", "--forward", "98", "--first-weekday", firstWeekday, "--week-numbers"])
        var ordinal = december2019
        var checked = 0
        for month in result.stdout.components(separatedBy: "\n\n") {
            for row in month.split(separator: "\n").dropFirst(2) {
                let fields = row.split(separator: " ").compactMap { Int($0) }
                guard fields.count > 1 else { continue }
                // The row's seven days: from the first day shown, back over the leading blanks.
                let firstShown = ordinal
                let leading = row.dropFirst(3).prefix { $0 == " " }.count / 3
                let rowDays = (firstShown - leading)..<(firstShown - leading + 7)
                var votes: [Int: Int] = [:]
                for day in rowDays { votes[isoWeek[day] ?? -1, default: 0] += 1 }
                let majority = votes.first { $0.value >= 4 }?.key
                #expect(majority == fields[0], "\(firstWeekday) row \(row)")
                ordinal += fields.count - 1
                checked += 1
            }
        }
        #expect(checked > 450)
    }

    /// Every first weekday against Python's calendar.TextCalendar (firstweekday 0 is Monday).
    @Test(.enabled(if: python != nil, "python3 is not installed; skipping the first-weekday comparison"),
          arguments: [("monday", 0), ("tuesday", 1), ("wednesday", 2), ("thursday", 3), ("friday", 4), ("saturday", 5), ("sunday", 6)])
    func firstWeekdaysMatchPython(day: String, python: Int) throws {
        for (year, month) in [(2024, 2), (2024, 9), (2026, 11)] {
            let expected = try Self.runPython("import calendar; print(calendar.TextCalendar(\(python)).formatmonth(\(year), \(month)), end='')")
            let result = try BinaryRunner.run(["--from", String(format: "%04d-%02d", year, month), "--forward", "1", "--first-weekday", day])
            #expect(NcalAgreementTests.normalized(result.stdout) == NcalAgreementTests.normalized(expected), "\(day) \(year)-\(month)")
        }
    }

    /// The year view's month rows are ncal -C -y's; only the heading line is placed
    /// differently (ncal sets it two cells left of the centre), and ncal pads every row of
    /// months to six weeks, so empty lines are left out of the comparison.
    @Test(.enabled(if: NcalAgreementTests.ncal != nil, "ncal is not installed; skipping the year view comparison"),
          arguments: [1900, 2024, 2025])
    func yearViewMatchesNcal(year: Int) throws {
        let ncal = try NcalAgreementTests.ncalLines(["-C", "-y", String(year)])
        let ours = NcalAgreementTests.normalized(try BinaryRunner.run(["--year", String(year), "--today", "2024-02-15"]).stdout)
        #expect(ours.dropFirst().filter { !$0.isEmpty } == ncal.dropFirst().filter { !$0.isEmpty })
        #expect(ours.first?.trimmingCharacters(in: .whitespaces) == String(year))
    }

    // ncal -C -j M Y, day of the year in three-cell cells.
    @Test(.enabled(if: NcalAgreementTests.ncal != nil, "ncal is not installed; skipping the day-of-year comparison"))
    func dayOfYearMatchesNcal() throws {
        for (year, month) in [(2024, 1), (2024, 2), (2024, 12), (2023, 12), (1900, 3)] {
            let ncal = try NcalAgreementTests.ncalLines(["-C", "-j", String(month), String(year)])
            let ours = try BinaryRunner.run(["--from", String(format: "%04d-%02d", year, month), "--forward", "1", "-j"]).stdout
            #expect(NcalAgreementTests.normalized(ours) == ncal, "\(year)-\(month)")
        }
    }

    /// Every calendar's stream ends at both of its limits, through the binary, in time.
    @Test(arguments: ["gregorian", "iso8601", "buddhist", "chinese", "coptic", "dangi", "ethiopic", "ethiopic-amete-alem", "hebrew",
                      "indian", "islamic", "islamic-civil", "islamic-tbla", "islamic-umalqura", "japanese", "persian", "roc"])
    func streamsEnd(calendar: String) throws {
        let backward = try BinaryRunner.run(["--calendar", calendar, "--from", "-4712-08", "--backward"], deadline: 30)
        #expect(backward.status == 0 && backward.stderr == "")
        let titles = backward.stdout.components(separatedBy: "\n\n").map { $0.prefix { $0 != "\n" } }
        #expect(titles.count >= 6 && titles.count <= 9)
        #expect(Set(titles).count == titles.count)
        // The Chinese calendar ends in December 65696, the Dangi in November 67684, the others
        // past year 506000.
        let from = calendar == "chinese" ? "65690-01" : calendar == "dangi" ? "67680-01" : "506712-06"
        let forward = try BinaryRunner.run(["--calendar", calendar, "--from", from, "--forward"], deadline: 60)
        #expect(forward.status == 0 && forward.stderr == "", "\(forward.stderr)")
        let forwardTitles = forward.stdout.components(separatedBy: "\n\n").map { $0.prefix { $0 != "\n" } }
        #expect(forwardTitles.count > 1 && forwardTitles.count < 200, "\(forwardTitles.count)")
        #expect(Set(forwardTitles).count == forwardTitles.count)
    }
}

/// The display width infcal computes against glibc's wcwidth in a UTF-8 locale, for every
/// character of the names of many locales and calendars.
@Suite struct DisplayWidthOracleTests {
    @Test func widthsMatchGlibc() throws {
        guard setlocale(LC_CTYPE, "C.UTF-8") != nil else {
            Issue.record("C.UTF-8 is not available")
            return
        }
        var scalars = Set<Unicode.Scalar>()
        for locale in ["ja_JP", "zh_CN", "zh_TW", "ko_KR", "he_IL", "ar_EG", "fa_IR", "th_TH", "hi_IN", "ru_RU", "el_GR", "am_ET",
                       "my_MM", "km_KH", "bn_BD", "ta_IN", "vi_VN", "ka_GE", "hy_AM", "si_LK"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: locale)
            for list in [formatter.standaloneMonthSymbols, formatter.shortStandaloneWeekdaySymbols,
                         formatter.veryShortStandaloneWeekdaySymbols, formatter.standaloneWeekdaySymbols] {
                for name in list { scalars.formUnion(name.unicodeScalars) }
            }
        }
        #expect(scalars.count > 500)
        for scalar in scalars {
            let glibc = Int(wcwidth(wchar_t(bitPattern: scalar.value)))
            #expect(DisplayWidth.of(scalar) == max(0, glibc), "U+\(String(scalar.value, radix: 16, uppercase: true)) \(scalar.properties.name ?? "")")
        }
    }
}

@_silgen_name("wcwidth")
private func wcwidth(_ character: wchar_t) -> Int32
