import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

/// The grid's widths, decided in `GridMetrics` alone: cal's 20-cell month (ncal -C and
/// util-linux cal print the same, `cal -3` rows 64 wide: 3 x 20 and two gutters of 2), 27 with
/// day-of-year numbers, 23 with week numbers, and the `--wall` page's smallest width from the
/// same day width as the page it draws.
@Suite struct GridMetricsTests {
    @Test func widths() {
        let plain = GridMetrics(numbering: .dayOfMonth, weekNumbers: nil)
        #expect(plain.dayWidth == 2 && plain.weekColumnWidth == 0 && plain.monthWidth == 20)
        #expect(plain.rowWidth(columns: 3) == 64)
        #expect(plain.rowWidth(columns: 1) == 20)
        #expect(plain.columns(fitting: 64, limit: .max) == 3)
        #expect(plain.columns(fitting: 63, limit: .max) == 2)
        #expect(plain.columns(fitting: 5, limit: .max) == 1)
        #expect(plain.columns(fitting: .max, limit: 3) == 3)
        #expect(GridMetrics(numbering: .dayOfYear, weekNumbers: nil).monthWidth == 27)
        #expect(GridMetrics(numbering: .dayOfMonth, weekNumbers: .iso).monthWidth == 23)
        // Wide weekday labels widen the day.
        #expect(GridMetrics(numbering: .dayOfMonth, weekNumbers: nil, labelWidth: 3).monthWidth == 27)
        // The smallest pages --width names: 22, 25 with -w, 29 with -j.
        #expect(plain.smallestPage.columns == 22)
        #expect(GridMetrics(numbering: .dayOfMonth, weekNumbers: .iso).smallestPage.columns == 25)
        #expect(GridMetrics(numbering: .dayOfYear, weekNumbers: nil).smallestPage.columns == 29)
    }

    /// The renderer draws with the widths the options resolve to.
    @Test func theRendererUsesTheResolvedWidths() throws {
        for arguments in [[], ["-j"], ["-w"], ["-j", "-w"], ["--locale", "pt_BR"], ["--locale", "ja_JP"]] {
            let configuration = try Fixture.resolve(arguments + ["-1", "--from", "2024-03"])
            let renderer = configuration.makeRenderer()
            let line = try Fixture.output(arguments + ["-1", "--from", "2024-03"]).split(separator: "\n")[1]
            #expect(DisplayWidth.of(String(line)) == renderer.metrics.monthWidth, "\(arguments)")
        }
    }

    /// A `--wall` width the options accept is one the page can be drawn at, also where the
    /// locale's weekday labels widen the day (pt_BR): it once checked the width against a
    /// two-cell day and then printed compact grids in silence.
    @Test func theSmallestWallWidthDrawsAPage() throws {
        let metrics = try Fixture.resolve(["--locale", "pt_BR", "-1"]).makeRenderer().metrics
        #expect(metrics.dayWidth > 2)
        let smallest = metrics.smallestPage.columns
        let page = try Fixture.output(["--locale", "pt_BR", "--wall", "--width", String(smallest), "--from", "2024-03", "-1"])
        #expect(page.contains("+---"), "\(page)")
        #expect(throws: UsageError.self) {
            try Fixture.resolve(["--locale", "pt_BR", "--wall", "--width", String(smallest - 1), "-1"])
        }
    }
}
