#!/usr/bin/env python3
"""Events shown in a time zone, worked out independently of infcal with Python's zoneinfo.

Usage: zone_oracle.py REQUEST.json (a list of requests is answered by a list of answers).

  {"zone": "Asia/Tokyo", "from": "2024-01-01", "until": "2025-01-01",
   "events": [{"summary": "A", "kind": "zoned", "tz": "Europe/Berlin",
               "start": "2024-10-26T22:00:00", "end": "2024-10-27T06:00:00"},
              {"summary": "B", "kind": "zoned", "tz": "America/New_York",
               "start": "2024-03-09T22:00:00", "days": 1, "seconds": 3600,
               "every": 7, "count": 20},
              {"summary": "C", "kind": "utc" | "floating", ...},
              {"summary": "D", "kind": "date", "start": "2024-03-26", "end": "2024-03-29"}]}

An event ends at "end" (DTEND: read in its own zone; the instance lasts the exact time between
the two instants, RFC 5545 3.8.2.2 and 3.8.5.3), or lasts "days" days of the calendar and
"seconds" exact seconds (DURATION: the days end on the same wall-clock time of the event's
zone that many days on, 23 or 25 hours where the offset changes, RFC 5545 3.3.6). With
"every" (days) and "count", it recurs: the instances start "every" days apart on the wall
clock of its zone (a rule's instances are local times, RFC 5545 3.3.10), "count" of them.
A local time the clocks skip is read with the offset before the gap, a repeated one as its
first occurrence (RFC 5545 3.3.5; zoneinfo's fold=0 does both, PEP 495). A floating time
is a wall-clock time of the zone shown, its end as far on that clock as written.

Prints, for each request, the instances that start on the days from "from" to "until"
(exclusive) in the zone shown, as infcal's --json writes an occurrence's times:
  {"summary": ..., "allDay": bool, "start": "2024-10-26T22:00:00+02:00", "end": ...}
(dates as "YYYY-MM-DD", the end exclusive; floating times without an offset), in order of
start, then summary.
"""

import datetime
import json
import sys
from zoneinfo import ZoneInfo

UTC = datetime.timezone.utc


def stamp(moment, zone):
    """An aware instant as infcal writes it: the zone's wall clock and its offset."""
    local = moment.astimezone(zone)
    offset = local.utcoffset()
    total = int(offset.total_seconds())
    sign = "+" if total >= 0 else "-"
    total = abs(total)
    return local.strftime("%Y-%m-%dT%H:%M:%S") + "%s%02d:%02d" % (sign, total // 3600, total % 3600 // 60)


def instants(event, shown):
    """The event's instances as (start, end, allDay, startDay): aware UTC datetimes, or naive
    wall-clock datetimes of the zone shown for a floating event, or dates."""
    kind = event["kind"]
    every = event.get("every")
    count = event.get("count", 1)
    if kind == "date":
        first = datetime.date.fromisoformat(event["start"])
        length = datetime.date.fromisoformat(event["end"]) - first
        for index in range(count):
            start = first + datetime.timedelta(days=index * (every or 0))
            yield start, start + length, True, start
        return
    wall = datetime.datetime.fromisoformat(event["start"])
    zone = UTC if kind == "utc" else ZoneInfo(event["tz"]) if kind == "zoned" else shown
    exact = None
    if kind == "floating":
        # Wall-clock times of no zone: the end is as far on the clock as written.
        end_wall = datetime.datetime.fromisoformat(event["end"]) if "end" in event else \
            wall + datetime.timedelta(days=event.get("days", 0), seconds=event.get("seconds", 0))
        for index in range(count):
            local = wall + datetime.timedelta(days=index * (every or 0))
            yield local, local + (end_wall - wall), False, local.date()
        return
    if "end" in event:
        end_wall = datetime.datetime.fromisoformat(event["end"])
        end_zone = ZoneInfo(event["end_tz"]) if "end_tz" in event else zone
        exact = end_wall.replace(tzinfo=end_zone, fold=0).astimezone(UTC) - wall.replace(tzinfo=zone, fold=0).astimezone(UTC)
    for index in range(count):
        local = wall + datetime.timedelta(days=index * (every or 0))
        start = local.replace(tzinfo=zone, fold=0).astimezone(UTC)
        if exact is not None:
            end = start + exact
        else:
            nominal = (local + datetime.timedelta(days=event.get("days", 0))).replace(tzinfo=zone, fold=0).astimezone(UTC)
            end = nominal + datetime.timedelta(seconds=event.get("seconds", 0))
        yield start, end, False, start.astimezone(shown).date()


def answer(request):
    shown = ZoneInfo(request["zone"])
    first = datetime.date.fromisoformat(request["from"])
    until = datetime.date.fromisoformat(request["until"])
    found = []
    for event in request["events"]:
        for start, end, all_day, day in instants(event, shown):
            if not first <= day < until:
                continue
            if all_day:
                texts = (start.isoformat(), end.isoformat())
                key = datetime.datetime.combine(start, datetime.time()).replace(tzinfo=shown).astimezone(UTC)
            elif event["kind"] == "floating":
                texts = (start.strftime("%Y-%m-%dT%H:%M:%S"), end.strftime("%Y-%m-%dT%H:%M:%S"))
                key = start.replace(tzinfo=shown, fold=0).astimezone(UTC)
            else:
                texts = (stamp(start, shown), stamp(end, shown))
                key = start
            found.append((key, event["summary"], {"summary": event["summary"], "allDay": all_day,
                                                   "start": texts[0], "end": texts[1]}))
    found.sort(key=lambda item: (item[0], item[1]))
    return [item[2] for item in found]


def main():
    with open(sys.argv[1], encoding="utf-8") as source:
        request = json.load(source)
    result = [answer(one) for one in request] if isinstance(request, list) else answer(request)
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
