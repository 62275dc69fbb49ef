#!/usr/bin/env python3
"""When the alarms of a calendar fire, by Python's icalendar and recurring-ical-events: the
independent expectations of AlarmOracleTests (Tests/InfCalEndToEndTests).

Modes (instants are seconds since 1970; one JSON object a line on standard output):

  rie FILE FROM UNTIL
      recurring_ical_events.of(calendar, components=["VALARM"]).between(FROM, UNTIL): each
      alarm firing with its event's UID, the alarm's DESCRIPTION, the instant it fires and
      the start of the occurrence it belongs to (null for an absolute trigger, which
      recurring-ical-events gives once, with the component as written).

  local FILE FROM UNTIL ZONE
      The occurrences of the events (recurring_ical_events.of(calendar).between), each one's
      alarms by icalendar's Alarms with ZONE as the local zone (the display zone of all-day
      and floating times): the firings from FROM to UNTIL.

  hebrew FILE FROM UNTIL ZONE
      The one event of FILE at its DTSTART's time of day in ZONE on every day that is the first
      of a Hebrew month (convertdate), each instance's alarms by icalendar's Alarms: an
      RSCALE=HEBREW;FREQ=MONTHLY;BYMONTHDAY=1 rule, expanded without infcal's code.

  instant ZONE YYYY-MM-DDTHH:MM MINUTES
      The instant of that wall-clock time in ZONE (zoneinfo, fold=0: a time in a gap is read
      with the offset before it, a repeated one is its first), and the instant MINUTES
      minutes before it.
"""
import datetime
import json
import sys
from zoneinfo import ZoneInfo

UTC = datetime.timezone.utc


def instant(value, zone):
    """Seconds since 1970 of a date, naive (local in `zone`) or aware date-time."""
    if not isinstance(value, datetime.datetime):
        value = datetime.datetime.combine(value, datetime.time(0))
    if value.tzinfo is None:
        value = value.replace(tzinfo=zone)
    return int(value.timestamp())


def when(seconds):
    return datetime.datetime.fromtimestamp(int(seconds), UTC)


def read(path):
    import icalendar
    with open(path, "rb") as handle:
        return icalendar.Calendar.from_ical(handle.read())


def text(value):
    return str(value) if value is not None else ""


def rie(path, start, stop):
    import recurring_ical_events
    calendar = read(path)
    absolute = set()
    for event in calendar.walk("VEVENT"):
        for alarm in event.walk("VALARM"):
            if isinstance(alarm.get("TRIGGER").dt, datetime.datetime):
                absolute.add(text(alarm.get("DESCRIPTION")))
    for component in recurring_ical_events.of(calendar, components=["VALARM"]).between(when(start), when(stop)):
        for alarm in component.walk("VALARM"):
            description = text(alarm.get("DESCRIPTION"))
            print(json.dumps({
                "uid": text(component.get("UID")),
                "description": description,
                "fires": instant(alarm.get("TRIGGER").dt, UTC),
                "start": None if description in absolute else instant(component.get("DTSTART").dt, UTC),
            }))


def firings(component, zone, start, stop):
    """The firings of `component`'s alarms by icalendar's Alarms, one alarm at a time: a
    whole number of days from a date gives a date (midnight in `zone`), which Alarms.times
    cannot put in a zone (it raises TypeError), so those come from its own _repeat and _add."""
    from icalendar.alarms import Alarms
    for alarm in component.walk("VALARM"):
        alarms = Alarms()
        alarms.set_start(component.start)
        alarms.set_end(component.end)
        alarms.add_alarm(alarm)
        alarms.set_local_timezone(zone)
        try:
            times = [time.trigger for time in alarms.times]
        except TypeError:
            base = component.start if alarm.TRIGGER_RELATED == "START" else component.end
            times = list(alarms._repeat(alarms._add(base, alarm.TRIGGER), alarm))
        for time in times:
            fires = instant(time, zone)
            if start <= fires < stop:
                print(json.dumps({
                    "uid": text(component.get("UID")),
                    "description": text(alarm.get("DESCRIPTION")),
                    "fires": fires,
                    "start": instant(component.get("DTSTART").dt, zone),
                }))


def local(path, start, stop, zone_name):
    import recurring_ical_events
    zone = ZoneInfo(zone_name)
    reach = datetime.timedelta(days=400)
    for component in recurring_ical_events.of(read(path)).between(when(start) - reach, when(stop) + reach):
        firings(component, zone, start, stop)


def hebrew(path, start, stop, zone_name):
    from convertdate import hebrew as calendar
    zone = ZoneInfo(zone_name)
    event = next(iter(read(path).walk("VEVENT")))
    first = event.get("DTSTART").dt.astimezone(zone)
    length = event.get("DTEND").dt - event.get("DTSTART").dt
    day = when(start).date() - datetime.timedelta(days=3)
    while day <= when(stop).date() + datetime.timedelta(days=3):
        if calendar.from_gregorian(day.year, day.month, day.day)[2] == 1:
            begin = datetime.datetime.combine(day, first.time(), tzinfo=zone)
            if begin >= first:
                instance = event.copy()
                for alarm in event.walk("VALARM"):
                    instance.add_component(alarm)
                instance.pop("RRULE", None)
                instance.pop("DTSTART", None)
                instance.pop("DTEND", None)
                instance.add("DTSTART", begin)
                instance.add("DTEND", begin + length)
                firings(instance, zone, start, stop)
        day += datetime.timedelta(days=1)


def wall(zone_name, local_text, minutes):
    zone = ZoneInfo(zone_name)
    naive = datetime.datetime.strptime(local_text, "%Y-%m-%dT%H:%M")
    begin = naive.replace(tzinfo=zone, fold=0).astimezone(UTC)
    print(json.dumps({"start": int(begin.timestamp()),
                      "fires": int((begin - datetime.timedelta(minutes=int(minutes))).timestamp())}))


if __name__ == "__main__":
    mode, arguments = sys.argv[1], sys.argv[2:]
    if mode == "rie":
        rie(arguments[0], int(arguments[1]), int(arguments[2]))
    elif mode == "local":
        local(arguments[0], int(arguments[1]), int(arguments[2]), arguments[3])
    elif mode == "hebrew":
        hebrew(arguments[0], int(arguments[1]), int(arguments[2]), arguments[3])
    elif mode == "instant":
        wall(arguments[0], arguments[1], arguments[2])
    else:
        sys.exit("unknown mode " + mode)
