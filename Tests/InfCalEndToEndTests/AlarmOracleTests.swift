import Foundation
import Testing
import InfCalModel
import InfCalEvents

/// When alarms fire (`AlarmSchedule`) against Python, over a year: recurring-ical-events'
/// own alarm series (`of(calendar, components=["VALARM"]).between`) for timed events with
/// RELATED=END, absolute triggers, REPEAT and overrides; icalendar's `Alarms` over each
/// occurrence for all-day and floating events in a display zone; icalendar's `Alarms` over
/// the instances convertdate gives for an RSCALE=HEBREW rule; zoneinfo for alarms 15 minutes
/// before 02:30 on the nights the clocks change (Europe/Berlin and America/New_York, both
/// ways). The script is `Tests/Oracles/alarm_oracle.py`. Skips, saying so, without python3
/// and those packages (`pip install "icalendar>=7.3" "recurring-ical-events>=3.8" convertdate`, the versions it
/// was written against; older ones lack the alarms).
@Suite struct AlarmOracleTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Oracles/alarm_oracle.py").path
    static let path = ProcessInfo.processInfo.environment["PATH"] ?? ""

    /// A python3 that can import the oracle's modules: from PATH first, then the system's.
    static let python: String? = {
        let candidates = path.split(separator: ":").map { "\($0)/python3" } + ["/usr/bin/python3", "/usr/local/bin/python3"]
        return candidates.first { candidate in
            guard FileManager.default.isExecutableFile(atPath: candidate),
                  let result = try? BinaryRunner.runProgram(URL(fileURLWithPath: candidate),
                                                            ["-c", "import icalendar, icalendar.alarms, recurring_ical_events, convertdate, zoneinfo; "
                                                             + "recurring_ical_events.of(icalendar.Calendar(), components=['VALARM'])"],
                                                            environment: ["PATH": path], deadline: 120) else { return false }
            return result.status == 0
        }
    }()

    /// One firing as both sides give it: the event, the alarm (by its DESCRIPTION), when it
    /// fires and when its occurrence starts (nil for an absolute trigger, which
    /// recurring-ical-events gives with the component as written, not an occurrence).
    struct Firing: Decodable, Hashable, Comparable {
        let uid: String
        let description: String
        let fires: Int
        let start: Int?

        static func < (left: Firing, right: Firing) -> Bool {
            (left.fires, left.uid, left.description, left.start ?? 0) < (right.fires, right.uid, right.description, right.start ?? 0)
        }

        /// The firing as a message shows it.
        var debugText: String { "\(EventFixtureText.text(fires)) \(uid) '\(description)' \(start.map(EventFixtureText.text) ?? "-")" }
    }

    /// What the oracle's `instant` mode prints: a wall-clock time's instant and the alarm's.
    struct Instant: Decodable {
        let start: Int
        let fires: Int
    }

    static let year2024 = (from: CivilTime.day(year: 2024, month: 1, day: 1) * 86_400, until: CivilTime.day(year: 2025, month: 1, day: 1) * 86_400)

    /// A fresh file holding `text` (LF line ends made CRLF).
    static func file(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-alarms-\(UUID().uuidString).ics")
        try Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8).write(to: url)
        return url.path
    }

    /// What the oracle prints for `arguments`: one object a line.
    static func oracle<Line: Decodable>(_ arguments: [String], as: Line.Type = Firing.self) throws -> [Line] {
        let result = try BinaryRunner.runProgram(URL(fileURLWithPath: python ?? "python3"), [script] + arguments,
                                                 environment: ["PATH": path], deadline: 600)
        #expect(result.status == 0, "\(result.stderr)")
        let decoder = JSONDecoder()
        return try result.stdout.split(separator: "\n").map { try decoder.decode(Line.self, from: Data($0.utf8)) }
    }

    /// What infcal's schedule gives for the file at `path`, sorted, without the starts of
    /// absolute triggers' occurrences (and with `withStarts` false, without any).
    static func infcal(_ path: String, from: Int, until: Int, display: DisplayZone = .utc, withStarts: Bool = true) throws -> [Firing] {
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let file = EventReader.read(data)
        #expect(file.problems.isEmpty && file.skipped.isEmpty, "\(file.problems) \(file.skipped)")
        let schedule = AlarmSchedule(store: EventStore(events: file.events, display: display))
        return schedule.firing(from: from, until: until).map { found in
            let absolute = found.alarm.trigger.offset == nil
            return Firing(uid: found.occurrence.uid, description: found.alarm.description, fires: found.fires,
                          start: withStarts && !absolute ? found.start : nil)
        }.sorted()
    }

    /// The two lists, and the firings only one side has (at most 20 of each).
    static func compare(_ ours: [Firing], _ theirs: [Firing], _ label: String) {
        let (mine, other) = (Set(ours), Set(theirs))
        let onlyOurs = ours.filter { !other.contains($0) }.prefix(20).map(\.debugText)
        let onlyTheirs = theirs.filter { !mine.contains($0) }.prefix(20).map(\.debugText)
        #expect(onlyOurs.isEmpty && onlyTheirs.isEmpty, "\(label): only infcal \(onlyOurs); only Python \(onlyTheirs)")
        #expect(ours.count == theirs.count, "\(label): infcal gives \(ours.count) firings, Python \(theirs.count)")
    }

    // MARK: Timed events, against recurring-ical-events

    static let timed = """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//infcal tests//EN
        BEGIN:VEVENT
        UID:weekly
        SUMMARY:Weekly
        DTSTART;TZID=Europe/Berlin:20240101T090000
        DURATION:PT1H
        RRULE:FREQ=WEEKLY;BYDAY=MO
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:weekly 15 minutes
        TRIGGER:-PT15M
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:weekly end repeated
        TRIGGER;RELATED=END:-PT5M
        REPEAT:2
        DURATION:PT5M
        END:VALARM
        BEGIN:VALARM
        ACTION:AUDIO
        DESCRIPTION:weekly day before
        TRIGGER:-P1D
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        UID:weekly
        RECURRENCE-ID;TZID=Europe/Berlin:20240304T090000
        SUMMARY:Moved
        DTSTART;TZID=Europe/Berlin:20240305T140000
        DURATION:PT1H
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:weekly own
        TRIGGER:-PT45M
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        UID:weekly
        RECURRENCE-ID;TZID=Europe/Berlin:20240311T090000
        SUMMARY:Quiet
        DTSTART;TZID=Europe/Berlin:20240311T090000
        DURATION:PT1H
        END:VEVENT
        BEGIN:VEVENT
        UID:newyork
        SUMMARY:Every third day
        DTSTART;TZID=America/New_York:20240102T183000
        DTEND;TZID=America/New_York:20240102T190000
        RRULE:FREQ=DAILY;INTERVAL=3
        EXDATE;TZID=America/New_York:20240108T183000
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:new york at the end
        TRIGGER;RELATED=END:PT0S
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:new york 90 minutes
        TRIGGER:-PT1H30M
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        UID:single
        SUMMARY:Single
        DTSTART:20240615T120000Z
        DTEND:20240615T130000Z
        BEGIN:VALARM
        ACTION:EMAIL
        DESCRIPTION:single absolute
        SUMMARY:Mail
        TRIGGER;VALUE=DATE-TIME:20240614T080000Z
        REPEAT:1
        DURATION:PT10M
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:single two hours
        TRIGGER:-PT2H
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        UID:monthly
        SUMMARY:Last Friday
        DTSTART:20240126T140000Z
        DTEND:20240126T170000Z
        RRULE:FREQ=MONTHLY;BYDAY=-1FR
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:monthly end day before
        TRIGGER;RELATED=END:-P1DT1H
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        UID:daily-absolute
        SUMMARY:Five days
        DTSTART:20240320T100000Z
        DURATION:PT1H
        RRULE:FREQ=DAILY;COUNT=5
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:once in the series
        TRIGGER;VALUE=DATE-TIME:20240321T093000Z
        END:VALARM
        END:VEVENT
        END:VCALENDAR

        """

    @Test(.enabled(if: python != nil, "python3 with icalendar, recurring-ical-events (with alarms) and convertdate is not installed; skipping"))
    func timedEventsAgreeWithRecurringIcalEvents() throws {
        let path = try Self.file(Self.timed)
        let (from, until) = Self.year2024
        let theirs = try Self.oracle(["rie", path, "\(from)", "\(until)"]).sorted()
        let ours = try Self.infcal(path, from: from, until: until)
        // 52 Mondays less 2 overridden, 5 firings each; the override's one; New York's 122 of
        // the year less an EXDATE, twice; the single's 3; 12 last Fridays; the series' 1.
        #expect(theirs.count > 500, "recurring-ical-events gave only \(theirs.count) firings")
        Self.compare(ours, theirs, "timed")
    }

    // MARK: All-day and floating events, against icalendar's Alarms

    static let local = """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//infcal tests//EN
        BEGIN:VEVENT
        UID:birthday
        SUMMARY:Birthday
        DTSTART;VALUE=DATE:19800331
        RRULE:FREQ=YEARLY
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:birthday eve at nine
        TRIGGER:-PT15H
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:birthday at nine
        TRIGGER:PT9H
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:birthday week ahead
        TRIGGER:-P1W
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        UID:sunday
        SUMMARY:Sunday
        DTSTART;VALUE=DATE:20240107
        RRULE:FREQ=WEEKLY
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:sunday at eight, again at half past
        TRIGGER:PT8H
        REPEAT:1
        DURATION:PT30M
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:sunday six hours before its end
        TRIGGER;RELATED=END:-PT6H
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        UID:trip
        SUMMARY:Trip over a change of clocks
        DTSTART;VALUE=DATE:20241025
        DTEND;VALUE=DATE:20241105
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:trip noon before its end
        TRIGGER;RELATED=END:-PT12H
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        UID:floating
        SUMMARY:Floating
        DTSTART:20240101T023000
        DURATION:PT30M
        RRULE:FREQ=DAILY
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:floating 15 minutes
        TRIGGER:-PT15M
        END:VALARM
        END:VEVENT
        END:VCALENDAR

        """

    @Test(.enabled(if: python != nil, "python3 with icalendar, recurring-ical-events (with alarms) and convertdate is not installed; skipping"),
          arguments: ["Europe/Berlin", "America/New_York"])
    func allDayAndFloatingAgreeWithIcalendar(_ zone: String) throws {
        let path = try Self.file(Self.local)
        let (from, until) = Self.year2024
        let theirs = try Self.oracle(["local", path, "\(from)", "\(until)", zone]).sorted()
        let display = DisplayZone(try #require(TimeZone(identifier: zone)))
        let ours = try Self.infcal(path, from: from, until: until, display: display)
        // 3 for the birthday, 52 Sundays of 3, the trip's 1, 366 floating mornings (the
        // night the clocks go forward among them).
        #expect(theirs.count > 500, "icalendar gave only \(theirs.count) firings")
        Self.compare(ours, theirs, zone)
    }

    // MARK: An RSCALE rule, against convertdate and icalendar's Alarms

    static let hebrew = """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//infcal tests//EN
        BEGIN:VEVENT
        UID:rosh-chodesh
        SUMMARY:First of the month
        DTSTART;TZID=Europe/Berlin:20231213T100000
        DTEND;TZID=Europe/Berlin:20231213T113000
        RRULE:RSCALE=HEBREW;FREQ=MONTHLY;BYMONTHDAY=1
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:hebrew 15 minutes
        TRIGGER:-PT15M
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:hebrew at the end
        TRIGGER;RELATED=END:PT0S
        END:VALARM
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:hebrew day before
        TRIGGER:-P1D
        END:VALARM
        END:VEVENT
        END:VCALENDAR

        """

    @Test(.enabled(if: python != nil, "python3 with icalendar, recurring-ical-events (with alarms) and convertdate is not installed; skipping"))
    func hebrewMonthsAgreeWithConvertdate() throws {
        let path = try Self.file(Self.hebrew)
        let (from, until) = Self.year2024
        let theirs = try Self.oracle(["hebrew", path, "\(from)", "\(until)", "Europe/Berlin"]).sorted()
        let ours = try Self.infcal(path, from: from, until: until)
        // 12 firsts of a Hebrew month in 2024 (5784 has Adar I and Adar II), 3 firings each,
        // and the day before 1 Tevet 5785 (1 January 2025).
        #expect(theirs.count == 37, "convertdate gave \(theirs.count) firings")
        Self.compare(ours, theirs, "hebrew")
    }

    // MARK: The nights the clocks change, against zoneinfo

    /// Events at 02:30 on the nights the clocks change, each with an alarm 15 minutes before
    /// (and 01:30 on New York's night back, which happens twice): a time the change skips is
    /// read with the offset before it, a repeated one as its first (RFC 5545 §3.3.5; zoneinfo's
    /// fold=0), and the alarm is 15 minutes of real time before that instant. A weekly event
    /// at 02:30 on Sundays crosses Berlin's night forward as a recurring one.
    @Test(.enabled(if: python != nil, "python3 with icalendar, recurring-ical-events (with alarms) and convertdate is not installed; skipping"))
    func fifteenMinutesBeforeTwoThirtyOnTheNightsTheClocksChange() throws {
        let nights: [(zone: String, local: String)] = [
            ("Europe/Berlin", "2024-03-31T02:30"), ("Europe/Berlin", "2024-10-27T02:30"),
            ("America/New_York", "2024-03-10T02:30"), ("America/New_York", "2024-11-03T02:30"),
            ("America/New_York", "2024-11-03T01:30"),
        ]
        var text = "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//infcal tests//EN\n"
        func stamp(_ local: String) -> String { local.replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "") + "00" }
        for (index, night) in nights.enumerated() {
            text += "BEGIN:VEVENT\nUID:night-\(index)\nDTSTART;TZID=\(night.zone):\(stamp(night.local))\nDURATION:PT1H\n"
                + "BEGIN:VALARM\nACTION:DISPLAY\nDESCRIPTION:\(night.zone) \(night.local)\nTRIGGER:-PT15M\nEND:VALARM\nEND:VEVENT\n"
        }
        text += "BEGIN:VEVENT\nUID:sundays\nDTSTART;TZID=Europe/Berlin:20240324T023000\nDURATION:PT1H\nRRULE:FREQ=WEEKLY;COUNT=3\n"
            + "BEGIN:VALARM\nACTION:DISPLAY\nDESCRIPTION:sundays\nTRIGGER:-PT15M\nEND:VALARM\nEND:VEVENT\nEND:VCALENDAR\n"
        let path = try Self.file(text)
        var expected: [Firing] = []
        let sundays = ["2024-03-24T02:30", "2024-03-31T02:30", "2024-04-07T02:30"].map { ("Europe/Berlin", $0, "sundays", "sundays") }
        for (zone, local, uid, description) in nights.enumerated().map({ ($1.zone, $1.local, "night-\($0)", "\($1.zone) \($1.local)") }) + sundays {
            let first = try #require(try Self.oracle(["instant", zone, local, "15"], as: Instant.self).first)
            expected.append(Firing(uid: uid, description: description, fires: first.fires, start: first.start))
        }
        let (from, until) = Self.year2024
        Self.compare(try Self.infcal(path, from: from, until: until), expected.sorted(), "clock changes")
        // Spot check by hand: 02:30 on Berlin's night forward is read as 03:30 CEST, 01:30 UTC.
        #expect(expected.first { $0.description == "Europe/Berlin 2024-03-31T02:30" }?.fires == CivilTime.day(year: 2024, month: 3, day: 31) * 86_400 + 3600 + 900)
    }
}

extension AlarmOracleTests {
    // MARK: Alarms written, read back by Python

    /// The alarms `EventWrite.replacingAlarms` writes (`15m` and `09:00`) into a weekly series
    /// in Berlin with a moved override, an all-day event and a single UTC event (the user in
    /// New York): icalendar reads every VALARM back as written, and recurring-ical-events fires
    /// them when worked out by hand (Berlin is UTC+2 in June, New York UTC-4): 15 minutes
    /// before 14:00 and at 09:00 local, 07:00 UTC, each Monday; the override moved to 16:00 on
    /// Tuesday 11 June, 13:45 and 07:00 UTC; the UTC event at 18:00 UTC (14:00 in New York),
    /// 17:45 and 13:00 UTC. What infcal's schedule gives of the same file agrees; the write
    /// tests' validator (`WrittenFiles`) finds the file whole and only those events changed.
    @Test(.enabled(if: python != nil, "python3 with icalendar, recurring-ical-events (with alarms) and convertdate is not installed; skipping"))
    func writtenAlarmsAreReadByPython() throws {
        let original = """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:-//infcal tests//EN
            BEGIN:VEVENT
            UID:series
            DTSTART;TZID=Europe/Berlin:20240603T140000
            DURATION:PT1H
            RRULE:FREQ=WEEKLY;COUNT=5
            SUMMARY:Weekly
            BEGIN:VALARM
            ACTION:AUDIO
            TRIGGER:-PT30M
            END:VALARM
            END:VEVENT
            BEGIN:VEVENT
            UID:series
            RECURRENCE-ID;TZID=Europe/Berlin:20240610T140000
            DTSTART;TZID=Europe/Berlin:20240611T160000
            DURATION:PT1H
            SUMMARY:Moved
            END:VEVENT
            BEGIN:VEVENT
            UID:holiday
            DTSTART;VALUE=DATE:20240615
            SUMMARY:Holiday
            END:VEVENT
            BEGIN:VEVENT
            UID:call
            DTSTART:20240620T180000Z
            DURATION:PT30M
            SUMMARY:Call
            END:VEVENT
            END:VCALENDAR

            """
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        let user = WritingZone(zone: newYork) { newYork.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval($0))) }
        let before = Array(original.replacingOccurrences(of: "\n", with: "\r\n").utf8)
        var data = before
        for uid in ["series", "holiday", "call"] {
            data = try #require(try EventWrite.replacingAlarms(of: uid, with: [NewAlarm("15m"), NewAlarm("09:00")].compactMap { $0 },
                                                               stamp: 1_718_000_000, zone: user, alarmUID: { "\(uid)-\($0)-\($1)" }, in: data))
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("infcal-written-\(UUID().uuidString).ics").path
        try Data(data).write(to: URL(fileURLWithPath: path))
        // RFC 5545's rules held by the write tests' validator, and only the three events changed.
        let report = try WrittenFiles.check(URL(fileURLWithPath: path), since: WrittenFiles.Snapshot(URL(fileURLWithPath: path), bytes: before))
        #expect(report.map { $0.touched } ?? ["call", "holiday", "series"] == ["call", "holiday", "series"])
        let script = """
            import sys, datetime, icalendar, recurring_ical_events
            calendar = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
            for event in calendar.walk("VEVENT"):
                for alarm in event.walk("VALARM"):
                    trigger = alarm.get("TRIGGER").dt
                    shown = str(int(trigger.total_seconds())) if isinstance(trigger, datetime.timedelta) else trigger.isoformat()
                    print(event.get("UID"), "recurrence" if event.get("RECURRENCE-ID") else "master", alarm.get("ACTION"),
                          alarm.get("UID"), alarm.get("DESCRIPTION"), shown)
            # recurring-ical-events adds a duration in hours to a date as whole days, and then
            # cannot make the alarm's component: the all-day event is left out of its query.
            calendar.subcomponents = [c for c in calendar.subcomponents if c.get("UID") != "holiday"]
            start = datetime.datetime(2024, 6, 1, tzinfo=datetime.timezone.utc)
            for component in recurring_ical_events.of(calendar, components=["VALARM"]).between(start, start + datetime.timedelta(days=45)):
                for alarm in component.walk("VALARM"):
                    print("fires", component.get("UID"), alarm.get("TRIGGER").dt.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M"))
            """
        let result = try BinaryRunner.runProgram(URL(fileURLWithPath: Self.python ?? "python3"), ["-c", script, path],
                                                 environment: ["PATH": Self.path], deadline: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { !$0.hasPrefix("fires") } == [
            "series master DISPLAY series-0-0 Weekly -900", "series master DISPLAY series-0-1 Weekly -18000",
            "series recurrence DISPLAY series-1-0 Moved -900", "series recurrence DISPLAY series-1-1 Moved 2024-06-11T07:00:00+00:00",
            "holiday master DISPLAY holiday-0-0 Holiday -900", "holiday master DISPLAY holiday-0-1 Holiday 32400",
            "call master DISPLAY call-0-0 Call -900", "call master DISPLAY call-0-1 Call 2024-06-20T13:00:00+00:00",
        ])
        let expected = [
            "series 2024-06-03T07:00", "series 2024-06-03T11:45", "series 2024-06-11T07:00", "series 2024-06-11T13:45",
            "series 2024-06-17T07:00", "series 2024-06-17T11:45", "call 2024-06-20T13:00", "call 2024-06-20T17:45",
            "series 2024-06-24T07:00", "series 2024-06-24T11:45", "series 2024-07-01T07:00", "series 2024-07-01T11:45",
        ]
        #expect(lines.filter { $0.hasPrefix("fires") }.map { String($0.dropFirst(6)) }.sorted { ($0.suffix(16), $0) < ($1.suffix(16), $1) } == expected)
        let from = CivilTime.day(year: 2024, month: 6, day: 1) * 86_400
        let schedule = AlarmSchedule(store: EventStore(events: EventReader.read(data).events, display: DisplayZone(newYork)))
        let ours = schedule.firing(from: from, until: from + 45 * 86_400).filter { $0.occurrence.uid != "holiday" }
            .map { "\($0.occurrence.uid) \(EventFixtureText.text($0.fires))" }
        #expect(ours == expected)
    }
}

/// `YYYY-MM-DDTHH:MM` (UTC) of civil seconds, for messages.
enum EventFixtureText {
    static func text(_ seconds: Int) -> String {
        let day = CivilTime.day(ofSeconds: seconds)
        let date = CivilTime.date(ofDay: day)
        let minutes = (seconds - day * 86_400) / 60
        return String(format: "%04d-%02d-%02dT%02d:%02d", date.year, date.month, date.day, minutes / 60, minutes % 60)
    }
}
