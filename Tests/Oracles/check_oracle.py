#!/usr/bin/env python3
"""The independent side of CheckEndToEndTests (`infcal check`).

    check_oracle.py uids CALENDAR...   which UIDs come twice, read with Python's icalendar
    check_oracle.py json FILE          infcal check --json's output, read with Python's json
    check_oracle.py recurs DTSTART RULE...   whether each rule recurs, by python-dateutil

`uids` reads each CALENDAR (an .ics file, or a directory whose .ics files below it are read in
sorted order) with icalendar, and prints one JSON object:

    {"duplicates": [[calendar, file, uid], ...],   a component (VEVENT, VTODO, VJOURNAL) of
                                                   the UID and RECURRENCE-ID of an earlier one
                                                   of the calendar (in this file or another)
     "splits": [[calendar, file, uid], ...],       a UID of an earlier file of the calendar,
                                                   none of whose components here is one of
                                                   that file's (an override apart from its series)
     "across": [[calendar, uid], ...]}             a UID of an earlier calendar

RECURRENCE-IDs are compared as icalendar reads them: a date, a floating time, or an instant
(an aware time in UTC). Files that are not regular, or not iCalendar, are left out.

`json` reads FILE line by line with json.loads, checks that each line is an object with the
fields and types the man page lists, and prints them as one JSON list of
[calendar, file, line, kind, severity, uid].

`recurs` prints one JSON list: for each RULE (an RRULE value without COUNT and UNTIL), whether
dateutil's rrule from DTSTART (a floating YYYYMMDDTHHMMSS) yields an instance after DTSTART
within 2 x 400 x INTERVAL years (a Gregorian rule's pattern repeats within 400 x INTERVAL).
"""
import json
import os
import stat
import sys
from datetime import date, datetime, timezone

ITEMS = ("VEVENT", "VTODO", "VJOURNAL")


def files_of(path):
    if not os.path.isdir(path):
        return [path]
    found = []
    for root, _, names in os.walk(path):
        for name in names:
            full = os.path.join(root, name)
            if name.lower().endswith(".ics") and not os.path.isdir(full):
                found.append(full)
    return sorted(found)


def occurrence(component):
    value = component.get("RECURRENCE-ID")
    if value is None:
        return None
    moment = value.dt
    if isinstance(moment, datetime):
        if moment.tzinfo is None:
            return ("floating", moment.isoformat())
        return ("instant", moment.astimezone(timezone.utc).isoformat())
    if isinstance(moment, date):
        return ("date", moment.isoformat())
    return ("text", str(moment))


def components(path):
    import icalendar
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return []
        with open(path, "rb") as handle:
            calendars = icalendar.Calendar.from_ical(handle.read(), multiple=True)
    except (OSError, ValueError):
        return []
    found = []
    for calendar in calendars:
        for component in calendar.subcomponents:
            if component.name in ITEMS and component.get("UID") not in (None, ""):
                found.append((str(component.get("UID")).strip(), occurrence(component)))
    return found


def uids(calendars):
    duplicates, splits, across = set(), set(), set()
    earlier_calendars = set()
    for calendar in calendars:
        keys_of_files = set()
        uids_of_files = set()
        here = set()
        for path in files_of(calendar):
            items = components(path)
            seen = set()
            for uid, rid in items:
                if (uid, rid) in seen or (uid, rid) in keys_of_files:
                    duplicates.add((calendar, path, uid))
                seen.add((uid, rid))
            for uid in {uid for uid, _ in items}:
                if uid in uids_of_files and not any((u, r) in keys_of_files for u, r in items if u == uid):
                    splits.add((calendar, path, uid))
            keys_of_files |= seen
            uids_of_files |= {uid for uid, _ in items}
            here |= {uid for uid, _ in items}
        across |= {(calendar, uid) for uid in here & earlier_calendars}
        earlier_calendars |= here
    print(json.dumps({"duplicates": sorted(map(list, duplicates)), "splits": sorted(map(list, splits)),
                      "across": sorted(map(list, across))}))


def read_json(path):
    fields = {"calendar": str, "file": str, "line": (int, type(None)), "kind": str, "severity": str,
              "message": str, "uid": (str, type(None))}
    rows = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            value = json.loads(line)
            if not isinstance(value, dict) or set(value) != set(fields):
                raise SystemExit(f"line {number}: not an object with {sorted(fields)}: {line!r}")
            for name, kind in fields.items():
                if not isinstance(value[name], kind) or isinstance(value[name], bool):
                    raise SystemExit(f"line {number}: {name} is {value[name]!r}")
            if value["severity"] not in ("error", "warning"):
                raise SystemExit(f"line {number}: severity {value['severity']!r}")
            rows.append([value["calendar"], value["file"], value["line"], value["kind"], value["severity"], value["uid"]])
    print(json.dumps(rows))


def recurs(start, rules):
    from dateutil.rrule import rrulestr
    first = datetime.strptime(start, "%Y%m%dT%H%M%S")
    answers = []
    for rule in rules:
        interval = 1
        for part in rule.split(";"):
            if part.startswith("INTERVAL="):
                interval = int(part[len("INTERVAL="):])
        years = min(2 * 400 * interval, 9999 - first.year)
        end = first.replace(year=first.year + years)
        answers.append(rrulestr(rule + ";UNTIL=" + end.strftime("%Y%m%dT%H%M%S"), dtstart=first).after(first) is not None)
    print(json.dumps(answers))


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "uids":
        uids(sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "json":
        read_json(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "recurs":
        recurs(sys.argv[2], sys.argv[3:])
    else:
        raise SystemExit(__doc__)
