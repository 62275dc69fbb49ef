"""Oracle for what infcal lists as under way on a day: python-dateutil expands each rule.

Usage: underway_oracle.py CASES_JSON. CASES_JSON is a JSON array of objects with "start"
(DTSTART, YYYYMMDDTHHMMSS), "zone" (an IANA zone; null or absent for a floating time), "rule" (the
RRULE value), "exdates" (EXDATEs in DTSTART's form), "seconds" (the duration) and "day"
(YYYY-MM-DD). Prints a JSON array: for each case, the instances under way at the start of the
day (UTC for a zoned event, the wall clock for a floating one), that is those starting before
it and ending after it, as "count" and the "first" 48 starts (ISO 8601 as infcal's JSON writes
them: with +00:00 for a zoned event).
"""
import datetime, json, sys
from zoneinfo import ZoneInfo
from dateutil.rrule import rrulestr, rruleset

UTC = datetime.timezone.utc
out = []
for case in json.loads(sys.argv[1]):
    zone = ZoneInfo(case["zone"]) if case.get("zone") else None
    parse = lambda text: datetime.datetime.strptime(text, "%Y%m%dT%H%M%S").replace(tzinfo=zone)
    start = parse(case["start"])
    rules = rruleset()
    rules.rrule(rrulestr(case["rule"], dtstart=start))
    for text in case["exdates"]:
        rules.exdate(parse(text))
    length = datetime.timedelta(seconds=case["seconds"])
    day = datetime.datetime.strptime(case["day"], "%Y-%m-%d")
    if zone:
        # Absolute time: an instance lasts its duration in UTC, whatever the wall clock does.
        moment = day.replace(tzinfo=UTC)
        wide = rules.between((moment - length - datetime.timedelta(days=2)).astimezone(zone),
                             (moment + datetime.timedelta(days=2)).astimezone(zone), inc=True)
        under = [s.astimezone(UTC) for s in wide if s.astimezone(UTC) < moment < s.astimezone(UTC) + length]
        text = lambda s: s.strftime("%Y-%m-%dT%H:%M:%S+00:00")
    else:
        under = [s for s in rules.between(day - length, day, inc=False)]
        text = lambda s: s.strftime("%Y-%m-%dT%H:%M:%S")
    out.append({"count": len(under), "first": [text(s) for s in under[:48]]})
print(json.dumps(out))
