import InfCalModel

// The VALARMs of one VEVENT read into `EventAlarm`s. An alarm that cannot be read is left out
// and said why, with its line (a problem of the file, which --strict counts); the event stays.

extension EventReader.Context {
    /// The alarms of `component` (a VEVENT) that can be read, in the order written.
    mutating func alarms(of component: Component) -> [EventAlarm] {
        var alarms: [EventAlarm] = []
        var count = 0
        for child in component.children where child.name == "VALARM" {
            count += 1
            if count > EventAlarm.mostPerComponent {
                file.problems.append((child.line, "VALARM: more than \(EventAlarm.mostPerComponent) alarms in one event; this one and those after it left out"))
                break
            }
            do {
                if let alarm = try alarm(child) { alarms.append(alarm) }
            } catch {
                file.problems.append((error.position.line, error.position.reason + "; alarm left out"))
            }
        }
        return alarms
    }

    /// One VALARM; nil for one that does nothing (ACTION:NONE, RFC 9074 §8) or whose ACTION
    /// infcal does not know (RFC 5545 §3.8.6.1: ignored, and noted).
    private mutating func alarm(_ component: Component) throws(EventReader.Failure) -> EventAlarm? {
        if let defect = component.defect { throw EventReader.Failure(position: (defect.line, "VALARM: " + defect.reason)) }
        for line in component.skippedLines {
            file.notes.append((line, "malformed line in a VALARM property infcal does not read; line skipped"))
        }
        guard let actionLine = component.first("ACTION") else {
            throw EventReader.Failure(position: (component.line, "VALARM: no ACTION"))
        }
        let actionText = document.trimmedValue(actionLine).uppercased()
        guard let action = EventAlarm.Action(rawValue: actionText) else {
            if actionText != "NONE" {
                file.notes.append((actionLine.line, "VALARM: ACTION '\(InertText.echo(actionText, limit: 40))' is no action infcal knows; alarm ignored"))
            }
            return nil
        }
        guard let triggerLine = component.first("TRIGGER") else {
            throw EventReader.Failure(position: (component.line, "VALARM: no TRIGGER"))
        }
        var alarm = EventAlarm(action: action, trigger: try trigger(triggerLine), line: component.line)
        var repeatLine: ContentLine?, intervalLine: ContentLine?
        for line in component.properties {
            switch line.name {
            case "DESCRIPTION": if alarm.description.isEmpty { alarm.description = document.textValue(line) }
            case "SUMMARY": if alarm.summary.isEmpty { alarm.summary = document.textValue(line) }
            case "UID": if alarm.uid == nil { alarm.uid = document.trimmedValue(line) }
            case "REPEAT": if repeatLine == nil { repeatLine = line }
            case "DURATION": if intervalLine == nil { intervalLine = line }
            case "ACKNOWLEDGED":
                guard let time = ICalTime.parse(document.trimmedBytes(line), isDate: false, zone: nil), time.form == .utc else {
                    file.notes.append((line.line, "ACKNOWLEDGED: '\(InertText.echo(document.rawValue(line), limit: 40))' is no UTC date-time; ignored"))
                    continue
                }
                alarm.acknowledged = max(alarm.acknowledged ?? Int.min, time.seconds)
            case "RELATED-TO":
                if line.parameter("RELTYPE")?.uppercased() == "SNOOZE" { alarm.snoozes = document.trimmedValue(line) }
            default:
                break
            }
        }
        if repeatLine != nil || intervalLine != nil { try repetitions(of: &alarm, repeatLine, intervalLine, line: component.line) }
        return alarm
    }

    /// TRIGGER: a duration from the start (or with `RELATED=END` the end), or with
    /// `VALUE=DATE-TIME` an instant (RFC 5545 §3.8.6.3); a value that reads as neither is
    /// tried as the other, as lenient readers do. A relative one farther from its event
    /// than `InputLimits.alarmReach` is refused.
    private mutating func trigger(_ line: ContentLine) throws(EventReader.Failure) -> EventAlarm.Trigger {
        let value = document.rawValue(line)
        let kind = line.parameter("VALUE")?.uppercased()
        let related = line.parameter("RELATED")?.uppercased()
        if let related, related != "START", related != "END" {
            throw EventReader.Failure(position: (line.line, "TRIGGER: RELATED '\(InertText.echo(related, limit: 40))' is neither START nor END"))
        }
        if kind != "DATE-TIME", let offset = EventAlarm.Offset(duration: value) {
            guard abs(offset.nominalSeconds) <= InputLimits.alarmReach else {
                throw EventReader.Failure(position: (line.line, "TRIGGER: '\(InertText.echo(value, limit: 40))' is more than "
                                                     + "\(InputLimits.alarmReach / CivilTime.secondsPerDay) days from its event"))
            }
            return related == "END" ? .end(offset) : .start(offset)
        }
        if kind != "DURATION", let time = ICalTime.parse(document.trimmedBytes(line), isDate: false, zone: line.parameter("TZID")) {
            switch time.form {
            case .utc, .date: return .absolute(time.seconds)
            case .zoned: return .absolute(convert(time, to: .utc, zone: nil))
            case .floating:
                // A floating instant of a calendar with X-WR-TIMEZONE is in that zone.
                if let (zone, _) = defaultZone { return .absolute(zone.utc(ofLocal: time.seconds)) }
                return .floating(time.seconds)
            }
        }
        throw EventReader.Failure(position: (line.line, "TRIGGER: '\(InertText.echo(value, limit: 40))' is no "
                                             + (kind == "DATE-TIME" ? "date-time" : "duration or date-time")))
    }

    /// REPEAT and DURATION, which come together or not at all (RFC 5545 §3.6.6): a REPEAT
    /// without a DURATION, or one that is no count, is noted and the alarm fires once; one
    /// beyond `EventAlarm.mostRepeats`, or reaching farther than `InputLimits.alarmReach`
    /// from the first firing, is cut to fit.
    private mutating func repetitions(of alarm: inout EventAlarm, _ repeatLine: ContentLine?, _ intervalLine: ContentLine?,
                                      line: Int) throws(EventReader.Failure) {
        guard let repeatLine, let intervalLine else {
            file.notes.append((line, "VALARM: REPEAT and DURATION come together; the alarm fires once"))
            return
        }
        let countText = document.trimmedValue(repeatLine)
        guard countText.count <= 9, countText.allSatisfy({ $0.isASCII && $0.isNumber }), var count = Int(countText) else {
            file.notes.append((repeatLine.line, "REPEAT: '\(InertText.echo(countText, limit: 40))' is no count; the alarm fires once"))
            return
        }
        let intervalText = document.rawValue(intervalLine)
        guard let interval = EventAlarm.Offset(duration: intervalText), interval.nominalSeconds > 0 else {
            file.notes.append((intervalLine.line, "DURATION: '\(InertText.echo(intervalText, limit: 40))' is no length after 0; the alarm fires once"))
            return
        }
        // REPEAT:0 repeats nothing, whatever its DURATION.
        guard count > 0 else { return }
        let fitting = min(EventAlarm.mostRepeats, InputLimits.alarmReach / interval.nominalSeconds)
        if count > fitting {
            file.notes.append((repeatLine.line, "REPEAT: \(count) times \(interval.duration) reaches too far; cut to \(fitting)"))
            count = fitting
        }
        alarm.repeatCount = count
        alarm.interval = interval
    }
}
