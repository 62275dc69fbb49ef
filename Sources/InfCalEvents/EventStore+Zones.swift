import InfCalModel

// The same events shown in another zone: the pager's `z` shows every view in the zone it
// chooses, the days events fall on included, by asking a store made for that zone.
extension EventStore {
    /// This store's events shown in `zone`, which `name` tells apart from the other zones
    /// asked: made on the first question and kept (a store is made for one zone: its order of
    /// starts and its days are that zone's), with this store's hidden calendars, the user's
    /// addresses and whether declined events are hidden.
    public func shown(in zone: DisplayZone, named name: String) -> EventStore {
        let store: EventStore
        if let known = otherZones.first(where: { $0.name == name })?.store {
            store = known
        } else {
            store = EventStore(events: events, display: zone, sources: sources, calendars: calendars,
                               calendarOfEvent: calendarOfEvent, preset: preset)
            otherZones.append((name, store))
        }
        store.hidden = hidden
        store.ownAddresses = ownAddresses
        store.hidesDeclined = hidesDeclined
        return store
    }

    /// The store `shown(in:named:)` made for `name`, or nil when none was asked for yet.
    public func shownStore(named name: String) -> EventStore? {
        otherZones.first { $0.name == name }?.store
    }
}
