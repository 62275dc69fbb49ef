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
        clock = WeekClock(locale: configuration.locale)
        weekHours = configuration.weekHours
    }
}

extension Configuration {
    /// What the pager of this run starts from, in `environment` (whose zone is the local one).
    func pagerSettings(environment: RunEnvironment) -> PagerSettings {
        var state = PagerState(calendar: calendar, start: start, bounds: bounds, today: today, view: page.initialView)
        let zones = pagerZones(environment: environment)
        if zones.count > 1 { state.setZones(zones) }
        var settings = PagerSettings(state: state, view: PagerView(configuration: self), followsClock: todayFollowsClock, mouse: page.mouse)
        // Today and midnight follow the clock of a zone --zone names.
        if zone != .local { settings.clockZone = zones.first?.zone }
        return settings
    }

    /// The zones the pager's `z` cycles: the run's (`--zone`, else the local one, named as TZ
    /// names it), then those of `--zones` that are not the same name.
    func pagerZones(environment: RunEnvironment) -> [NamedZone] {
        let first = NamedZone(name: zone.label(in: environment), zone: zone.display(local: environment.displayZone))
        let others = zones.filter { $0.label(in: environment) != first.name }
        return [first] + others.map { NamedZone(name: $0.name, zone: $0.display(local: environment.displayZone)) }
    }
}
