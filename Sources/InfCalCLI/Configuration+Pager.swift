import InfCalModel
import InfCalRender
import InfCalPager
import InfCalEvents

/// The pager is built from the resolved configuration here, above it, so that the pager
/// itself never reads options.
extension PagerView {
    /// The view of a run: columns fitted to the width follow the terminal's width as it changes.
    init(configuration: Configuration) {
        var renderer = configuration.makeRenderer()
        renderer.titleStyle = .monthAndYear
        let fixed: Int?
        switch configuration.columnLayout {
        case .fixed(let count): fixed = count
        case .fitted: fixed = nil
        }
        self.init(renderer: renderer, highlightToday: configuration.color, columns: fixed,
                  box: configuration.page.box, weekendDays: configuration.page.weekendDays)
        agendaPrinter = AgendaPrinter(locale: configuration.locale, width: nil)
        agendaPrinter.also = renderer.also
        trueColor = configuration.trueColor
    }
}

extension Configuration {
    /// What the pager of this run starts from.
    func pagerSettings() -> PagerSettings {
        PagerSettings(state: PagerState(calendar: calendar, start: start, bounds: bounds, today: today, view: page.initialView),
                      view: PagerView(configuration: self), followsClock: todayFollowsClock, mouse: page.mouse)
    }
}
