import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

extension EventChange {
    /// The change the pager's day view asks for with `write`, read as the command line reads
    /// its operands, without an argument list: a text `TIME[-TIME] SUMMARY` (the TIME when it
    /// starts with one) by the command line's own time parser; a recurring event's edit or
    /// delete is of the selected day's occurrence only. `event` gives the UID of the day's
    /// event at an index and whether it recurs, or nil when it is gone; so is the change then.
    /// - throws: `UsageError` for a text the command line would refuse too.
    public static func fromPager(_ write: PagerState.Write,
                                 event: (Int) -> (uid: String, recurring: Bool)?) throws(UsageError) -> EventChange? {
        func split(_ text: String) throws(UsageError) -> (time: (start: Int, end: Int?)?, summary: String?) {
            var words = text.split(separator: " ").map(String.init)[...]
            var time: (start: Int, end: Int?)?
            if let first = words.first, let parsed = try EventCommand.Reader.time(first) {
                time = parsed
                words = words.dropFirst()
            }
            let summary = words.isEmpty ? nil : words.joined(separator: " ")
            if let summary { try EventCommand.Reader.checkText(summary, name: "SUMMARY", lineBreaks: false) }
            return (time, summary)
        }
        func scope(_ day: Int, recurring: Bool) -> ChangeScope {
            recurring ? .occurrence(CivilDay(dayNumber: day)) : .series
        }
        switch write {
        case let .add(day, text):
            let (time, summary) = try split(text)
            guard let summary else {
                throw .missingValue(option: "SUMMARY", expected: "infcal add [DATE] [TIME[-TIME]] SUMMARY... (the summary is empty)")
            }
            return .add(NewEventRequest(day: CivilDay(dayNumber: day), time: time, summary: summary))
        case let .edit(day, index, text):
            guard let (uid, recurring) = event(index) else { return nil }
            var fields = EventChanges()
            (fields.time, fields.summary) = try split(text)
            if fields.isEmpty { throw EventCommand.Reader.nothingToChange }
            return .edit(uid: uid, scope: scope(day, recurring: recurring), fields: fields)
        case let .delete(day, index):
            guard let (uid, recurring) = event(index) else { return nil }
            return .delete(uid: uid, scope: scope(day, recurring: recurring))
        }
    }
}
