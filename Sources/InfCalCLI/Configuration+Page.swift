import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

/// How month pages look and how the pager opens: resolved once, with the rest of the configuration.
struct PageSettings: Sendable {
    /// The grid's lines: box drawing where the character set is UTF-8, else ASCII.
    var box: BoxCharacters = .ascii
    /// The locale's weekend, as weekdays 1 (Sunday) to 7 (Saturday); worked out for the pager
    /// and `--wall` only.
    var weekendDays: Set<Int> {
        get { localeWeekend ?? [1, 7] }
        set { localeWeekend = newValue }
    }
    /// Set only where pages are shown: a run that shows none builds no set.
    private var localeWeekend: Set<Int>?
    /// `--wall`: the width pages are printed at; nil prints the compact grids.
    var wallWidth: Int?
    /// `--mouse`: the pager asks the terminal for wheel events.
    var mouse = false
    /// The view the pager opens with: the strip when `--columns N` or `--vertical` was given, else the month page.
    var initialView: PagerState.View = .monthPage

    init() {}
}

extension Configuration {
    /// The widest `--width` takes.
    static let maximumWallWidth = 10_000

    /// The page settings of `raw` in `environment`.
    /// - throws: `UsageError` for a bad `--width`, or `--wall` with an option it cannot go with.
    static func resolvePage(_ raw: RawOptions, environment: RunEnvironment, mode: Mode, locale: Locale?,
                            metrics: GridMetrics) throws(UsageError) -> PageSettings {
        var settings = PageSettings()
        let paged = mode == .paged
        settings.box = LocaleSetting.usesUTF8 { environment.variable($0) } ? .unicode : .ascii
        // Only pages show the weekend: a stream does not pay for ICU's weekend data.
        if paged || raw.has(.wall) { settings.weekendDays = LocaleSetting.weekendDays(of: locale) }
        settings.mouse = raw.has(.mouse)
        // --columns N asks for months side by side, --vertical for ncal's compact layout: both
        // open the strip.
        if paged, raw.has(.vertical) || (raw.last(.columns).map { $0.value != "auto" } ?? false) {
            settings.initialView = .strip
        }

        let smallest = metrics.smallestPage.columns
        guard raw.has(.wall) else {
            if let width = raw.last(.width), mode != .weeks {
                throw .unavailable(option: width.spelling, reason: "it sets the width of --wall pages and --week grids")
            }
            return settings
        }
        if let option = raw.last(.width) {
            let value = option.value ?? ""
            guard let width = Int(value), (smallest...maximumWallWidth).contains(width) else {
                throw .invalidValue(option: option.spelling, value: value,
                                    expected: "a width in columns from \(smallest) to \(maximumWallWidth)")
            }
            settings.wallWidth = width
        } else {
            let width = environment.pageWidth(fallback: defaultWidth)
            // Too narrow a terminal or COLUMNS gets the narrowest page, not an error.
            settings.wallWidth = min(maximumWallWidth, max(smallest, width))
        }
        return settings
    }

    /// The width `--week` prints at: `--width`, else COLUMNS, else the terminal's, else 80;
    /// one too narrow for a week's seven days is the narrowest that is not, as `--wall` takes it.
    /// - throws: `UsageError.invalidValue` for a `--width` outside what a week can be printed at.
    static func resolveWeekWidth(_ raw: RawOptions, environment: RunEnvironment, smallest: Int) throws(UsageError) -> Int {
        guard let option = raw.last(.width) else { return min(maximumWallWidth, max(smallest, environment.pageWidth(fallback: defaultWidth))) }
        let value = option.value ?? ""
        guard let width = Int(value), (smallest...maximumWallWidth).contains(width) else {
            throw .invalidValue(option: option.spelling, value: value,
                                expected: "a width in columns from \(smallest) (a week's seven days) to \(maximumWallWidth)")
        }
        return width
    }

    /// The renderer of the week by the hour, for `--week` and the pager's week view: the run's
    /// names, calendar, first weekday and `--also`, its box and the locale's clock.
    func makeWeekRenderer() -> WeekRenderer {
        var renderer = makeRenderer()
        renderer.titleStyle = .monthAndYear
        var week = WeekRenderer(renderer: renderer, box: page.box, clock: WeekClock(locale: locale))
        week.color = color
        week.trueColor = trueColor
        week.today = today
        return week
    }

    /// The page drawing this run's months, for `--wall` and the pager's month page.
    func makeMonthPage() -> MonthPage {
        var renderer = makeRenderer()
        renderer.titleStyle = .monthAndYear
        var monthPage = MonthPage(renderer: renderer, box: page.box, weekendDays: page.weekendDays, color: color)
        monthPage.trueColor = trueColor
        return monthPage
    }

    /// The `--wall` printer, or nil without `--wall`.
    func makePagePrinter() -> MonthPagePrinter? {
        // Without --wall no page is made (its weekend set alone costs a metadata look-up).
        guard let width = page.wallWidth else { return nil }
        let monthPage = makeMonthPage()
        guard let layout = monthPage.wallLayout(width: width) else { return nil }
        return MonthPagePrinter(page: monthPage, layout: layout)
    }

    /// Prints the run's months to `sink`: as pages with `--wall`, else as compact grids.
    func printMonths(to sink: ByteSink) throws {
        if let pages = makePagePrinter() {
            try pages.print(months(), to: sink)
        } else {
            try printGrids(to: sink)
        }
    }
}
