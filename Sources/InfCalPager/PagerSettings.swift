import InfCalEvents
/// What a pager session starts from: the state on its first month and the view that draws it,
/// and how it follows the clock and the mouse. The run builds it from its resolved settings,
/// so the pager never sees the whole configuration.
public struct PagerSettings {
    /// The state on the run's first month, inside its bounds, with its today and first view.
    public var state: PagerState
    /// The view drawing the state (the events are added once they are read).
    public var view: PagerView
    /// Whether today follows the clock (no `--today`): the highlight moves at midnight.
    public var followsClock: Bool
    /// Whether the terminal reports the mouse (`--mouse`).
    public var mouse: Bool
    /// The zone whose clock today and midnight follow (`--zone`); nil: the local one, as the
    /// C library reads TZ.
    public var clockZone: DisplayZone?

    public init(state: PagerState, view: PagerView, followsClock: Bool, mouse: Bool) {
        self.state = state
        self.view = view
        self.followsClock = followsClock
        self.mouse = mouse
    }
}
