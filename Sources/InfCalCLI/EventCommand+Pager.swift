import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

extension EventCommand {
    /// The command the pager's day view asks for with `write`, read as the command line reads
    /// its operands, without an argument list: a text `TIME[-TIME] SUMMARY` (the TIME when it
    /// starts with one), by the same time parser; a recurring event's edit or delete is of the
    /// selected day's occurrence only. `event` gives the UID of the day's event at an index and
    /// whether it recurs, or nil when it is gone; so is the command then.
    /// - throws: `UsageError` for a text the command line would refuse too.
    public static func pagerCommand(for write: PagerState.Write,
                                    event: (Int) -> (uid: String, recurring: Bool)?) throws(UsageError) -> EventCommand? {
        func split(_ text: String) throws(UsageError) -> (time: (start: Int, end: Int?)?, summary: String?) {
            var words = text.split(separator: " ").map(String.init)[...]
            var time: (start: Int, end: Int?)?
            if let first = words.first, let parsed = try Reader.time(first) {
                time = parsed
                words = words.dropFirst()
            }
            let summary = words.isEmpty ? nil : words.joined(separator: " ")
            if let summary { try Reader.checkText(summary, name: "SUMMARY", lineBreaks: false) }
            return (time, summary)
        }
        guard let add = Subcommand.named("add"), let edit = Subcommand.named("edit"), let delete = Subcommand.named("delete") else { return nil }
        switch write {
        case let .add(day, text):
            let (time, summary) = try split(text)
            guard let summary else {
                throw .missingValue(option: "SUMMARY", expected: "infcal add [DATE] [TIME[-TIME]] SUMMARY... (the summary is empty)")
            }
            let request = AddRequest(day: CivilTime.day(ofGrid: day), time: time, duration: nil, rule: nil, ending: nil, summary: summary,
                                     location: nil, description: nil)
            return EventCommand(subcommand: add, action: .add(request), target: nil)
        case let .edit(day, index, text):
            guard let (uid, recurring) = event(index) else { return nil }
            let (time, summary) = try split(text)
            var changes = EventChanges()
            changes.time = time
            changes.summary = summary
            if time == nil, summary == nil {
                throw .missingValue(option: "edit", expected: "something to change: DATE, TIME, --summary, --for, --location, --description or --every")
            }
            return EventCommand(subcommand: edit, action: .edit(uid: uid, occurrence: recurring ? CivilTime.day(ofGrid: day) : nil, changes: changes),
                                target: nil)
        case let .delete(day, index):
            guard let (uid, recurring) = event(index) else { return nil }
            return EventCommand(subcommand: delete, action: .delete(uid: uid, occurrence: recurring ? CivilTime.day(ofGrid: day) : nil), target: nil)
        }
    }
}
