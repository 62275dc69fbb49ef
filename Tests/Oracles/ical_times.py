#!/usr/bin/env python3
"""The independent reader of the invitation tests: Python's icalendar.

For each file named, one line a VEVENT:
    UID <tab> RECURRENCE-ID <tab> DTSTART <tab> DTEND <tab> STATUS <tab> SEQUENCE
times in UTC as YYYYMMDDTHHMMSSZ (a date as YYYYMMDD, "-" where absent, "?" where
icalendar cannot tell the zone), then, with --instances FROM TO (YYYYMMDD), the starts of
the instances recurring_ical_events gives in that range, one line each:
    UID <tab> START (UTC) <tab> SUMMARY
With --windows instead of files: the Windows zone names and the IANA zone each stands for, as
icalendar carries CLDR's windowsZones.xml, one "NAME <tab> ZONE" a line.
Used by the invitation tests (Tests/InfCalKitTests/Invitations); exits 3 when icalendar is missing.
"""
import sys
import datetime

try:
    import icalendar
except ImportError:
    sys.exit(3)


def utc(value):
    if value is None:
        return "-"
    value = value.dt if hasattr(value, "dt") else value
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            return "?" + value.strftime("%Y%m%dT%H%M%S")
        return value.astimezone(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    return value.strftime("%Y%m%d")


def main(arguments):
    if arguments[:1] == ["--windows"]:
        from icalendar.timezone.windows_to_olson import WINDOWS_TO_OLSON
        for name, zone in sorted(WINDOWS_TO_OLSON.items()):
            print(name + "\t" + zone)
        return
    span = None
    if arguments[:1] == ["--instances"]:
        span = (arguments[1], arguments[2])
        arguments = arguments[3:]
    for path in arguments:
        with open(path, "rb") as handle:
            calendar = icalendar.Calendar.from_ical(handle.read())
        for event in calendar.walk("VEVENT"):
            print("\t".join([str(event.get("UID")), utc(event.get("RECURRENCE-ID")), utc(event.get("DTSTART")),
                             utc(event.get("DTEND")), str(event.get("STATUS", "-")), str(event.get("SEQUENCE", 0))]))
        if span:
            import recurring_ical_events
            start = datetime.datetime.strptime(span[0], "%Y%m%d").date()
            end = datetime.datetime.strptime(span[1], "%Y%m%d").date()
            for event in recurring_ical_events.of(calendar).between(start, end):
                if str(event.get("STATUS", "")).upper() == "CANCELLED":
                    continue
                print("\t".join(["instance", str(event.get("UID")), utc(event.get("DTSTART")), str(event.get("SUMMARY"))]))


if __name__ == "__main__":
    main(sys.argv[1:])
