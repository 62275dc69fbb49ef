#!/usr/bin/env python3
"""The week grid's rows worked out independently of infcal, from Python's zoneinfo and datetime.

Usage: week_oracle.py REQUEST.json (or the request on standard input; a list of requests is
answered by a list of answers, in order). The request names the zone the week is shown in, its
days, the minutes a row stands for, the hours shown and the events:

  {"zone": "Europe/Berlin", "days": ["2024-03-25", ...], "step": 30, "hours": [0, 24],
   "events": [{"summary": "A", "kind": "zoned", "tz": "America/New_York",
               "start": "2024-03-27T09:00:00", "end": "2024-03-27T10:00:00"},
              {"summary": "E", "kind": "zoned", "tz": "Europe/Berlin", "start": "2024-03-31T02:30:00", "minutes": 60},
              {"summary": "B", "kind": "utc", "start": "2024-10-27T01:30:00", "end": ...},
              {"summary": "C", "kind": "floating", ...},
              {"summary": "D", "kind": "date", "start": "2024-03-26", "end": "2024-03-29"}]}

A zoned or floating local time is read as RFC 5545 section 3.3.5 reads it: a time the clocks
skip with the offset before the gap, a repeated one as its first occurrence (zoneinfo's
fold=0 does both, PEP 495). A floating time is read in the zone shown.

Each day's clock is found by brute force: every minute from 15 hours before the day's UTC
midnight to 15 hours after the next, turned into the zone's wall clock; the minutes whose wall
date is the day make its slots, a slot being a run of minutes in the same step of the wall
clock; a step seen again later the same day (the clocks went back) is its second time (fold 1).

Prints one JSON object (a list of them for a list of requests):
  "days":   each day's slots within the hours shown, in order, as [minute, fold]
  "hours":  each day's length in hours
  "blocks": each timed event shorter than a day, in each day it touches and the hours show:
            first and last slot shown, its lane and the lanes of its cluster, and whether the
            hours cut it above or below
  "above", "below": each day's count of timed events entirely before / after the hours shown
  "cover":  each day's count of blocks on each slot shown, "minute,fold" -> count
  "band":   each event of a day or more (all day, or 24 hours or longer): first and last day
            shown, its line (lines shared by events whose days do not meet)
  "headings": each day's weekday and number, "title": the months the days lie in, as Python's
            calendar module names them in the C locale
The lanes: in each day, the events in order of first slot (the longer first, then by start and
summary), each in the lowest lane free at its first slot; a cluster of events linked by shared
slots has as many lanes as it uses.
"""

import calendar
import datetime
import json
import sys
from zoneinfo import ZoneInfo

UTC = datetime.timezone.utc


def instant(event, zone):
    """The event's start and end as aware UTC datetimes (None for a date)."""
    kind = event["kind"]
    if kind == "date":
        return None
    start = datetime.datetime.fromisoformat(event["start"])
    if event.get("minutes") is not None:
        # DURATION: exact time from the start's instant (RFC 5545 3.3.6).
        tz = UTC if kind == "utc" else ZoneInfo(event["tz"]) if kind == "zoned" else zone
        first = start.replace(tzinfo=tz, fold=0).astimezone(UTC)
        return first, first + datetime.timedelta(minutes=event["minutes"])
    end = datetime.datetime.fromisoformat(event["end"])
    if kind == "utc":
        tz = UTC
    elif kind == "zoned":
        tz = ZoneInfo(event["tz"])
    else:
        tz = zone
    return start.replace(tzinfo=tz, fold=0).astimezone(UTC), end.replace(tzinfo=tz, fold=0).astimezone(UTC)


def slots_of(day, zone, step):
    """The day's slots: [minute, fold, first UTC minute, UTC end]."""
    midnight = datetime.datetime(day.year, day.month, day.day, tzinfo=UTC)
    t = midnight - datetime.timedelta(hours=15)
    end = midnight + datetime.timedelta(hours=24 + 15)
    slots = []
    previous = None
    wall = None
    while t < end:
        local = t.astimezone(zone)
        if local.date() == day:
            minute = local.hour * 60 + local.minute
            key = minute // step * step
            # The same step of the clock, the clock going on (not back): the same slot.
            if previous is not None and previous[0] == key and previous[3] == t and minute > wall:
                previous[3] = t + datetime.timedelta(minutes=1)
            else:
                fold = sum(1 for s in slots if s[0] == key)
                previous = [key, fold, t, t + datetime.timedelta(minutes=1)]
                slots.append(previous)
            wall = minute
        t += datetime.timedelta(minutes=1)
    return slots


def slot_index(slots, moment):
    for index, slot in enumerate(slots):
        if slot[2] <= moment < slot[3]:
            return index
    return None


def main():
    if len(sys.argv) > 1:
        with open(sys.argv[1], encoding="utf-8") as source:
            request = json.load(source)
    else:
        request = json.load(sys.stdin)
    # A list of requests is answered by a list, in order.
    answers = [answer(one) for one in request] if isinstance(request, list) else answer(request)
    print(json.dumps(answers, sort_keys=True))


def answer(request):
    zone = ZoneInfo(request["zone"])
    step = request["step"]
    low, high = request["hours"]
    days = [datetime.date.fromisoformat(d) for d in request["days"]]
    events = request["events"]
    second = datetime.timedelta(seconds=1)

    result = {"days": {}, "hours": {}, "blocks": [], "above": {}, "below": {}, "cover": {}, "band": []}
    # The headings and the title as the C locale writes them: calendar's names.
    result["headings"] = ["%s %d" % (calendar.day_name[d.weekday()], d.day) for d in days]
    months = []
    for d in days:
        name = "%s %d" % (calendar.month_name[d.month], d.year)
        if name not in months:
            months.append(name)
    result["title"] = months
    timed = []
    band = []
    for event in events:
        span = instant(event, zone)
        if span is None:
            first = datetime.date.fromisoformat(event["start"])
            last = datetime.date.fromisoformat(event["end"]) - datetime.timedelta(days=1)
            band.append((first, last, event))
        elif span[1] - span[0] >= datetime.timedelta(days=1):
            first = span[0].astimezone(zone).date()
            last = (span[1] - second).astimezone(zone).date()
            band.append((first, last, event))
        else:
            timed.append((span, event))

    for day in days:
        name = day.isoformat()
        slots = slots_of(day, zone, step)
        day_start, day_end = (slots[0][2], slots[-1][3]) if slots else (None, None)
        result["hours"][name] = (day_end - day_start).total_seconds() / 3600 if slots else 0
        shown = [i for i, s in enumerate(slots) if low * 60 <= s[0] < high * 60]
        result["days"][name] = [[slots[i][0], slots[i][1]] for i in shown]
        first_shown, end_shown = (shown[0], shown[-1] + 1) if shown else (0, 0)
        pieces = []
        for (start, end), event in timed:
            if not slots:
                continue
            touches = start < day_end and end > day_start if end > start else day_start <= start < day_end
            if not touches:
                continue
            first = slot_index(slots, max(start, day_start))
            last = slot_index(slots, min(end, day_end) - second) if end > start else first
            pieces.append({"first": first, "last": max(first, last), "start": start, "event": event})
        pieces.sort(key=lambda p: (p["first"], -p["last"], p["start"], p["event"]["summary"]))
        lane_ends = []
        cluster = []
        cluster_end = -1

        def close():
            for piece in cluster:
                piece["lanes"] = max(1, len(lane_ends))

        for piece in pieces:
            if piece["first"] > cluster_end:
                close()
                cluster = []
                lane_ends = []
            free = next((i for i, e in enumerate(lane_ends) if e < piece["first"]), None)
            if free is None:
                free = len(lane_ends)
                lane_ends.append(piece["last"])
            else:
                lane_ends[free] = piece["last"]
            piece["lane"] = free
            cluster.append(piece)
            cluster_end = max(cluster_end, piece["last"])
        close()
        above = below = 0
        cover = {}
        for piece in pieces:
            if piece["last"] < first_shown:
                above += 1
            elif piece["first"] >= end_shown:
                below += 1
            else:
                first = max(piece["first"], first_shown)
                last = min(piece["last"], end_shown - 1)
                result["blocks"].append({
                    "summary": piece["event"]["summary"], "date": name,
                    "first": [slots[first][0], slots[first][1]], "last": [slots[last][0], slots[last][1]],
                    "lane": piece["lane"], "lanes": piece["lanes"],
                    "clipTop": piece["first"] < first_shown, "clipBottom": piece["last"] >= end_shown,
                })
                for index in range(first, last + 1):
                    key = "%d,%d" % (slots[index][0], slots[index][1])
                    cover[key] = cover.get(key, 0) + 1
        result["above"][name] = above
        result["below"][name] = below
        result["cover"][name] = cover

    # The band: each event on the first line free over its days.
    first_day, last_day = days[0], days[-1]
    items = []
    for first, last, event in band:
        if first > last_day or last < first_day:
            continue
        items.append((max(first, first_day), min(last, last_day), event))
    items.sort(key=lambda item: (item[0], -(item[1] - item[0]).days, item[2]["start"], item[2]["summary"]))
    line_ends = []
    for first, last, event in items:
        line = next((i for i, e in enumerate(line_ends) if e < first), None)
        if line is None:
            line = len(line_ends)
            line_ends.append(last)
        else:
            line_ends[line] = last
        result["band"].append({"summary": event["summary"], "first": first.isoformat(), "last": last.isoformat(), "line": line})
    return result


if __name__ == "__main__":
    main()
