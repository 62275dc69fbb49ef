"""Oracle for infcal's recurrence engine: random RRULEs expanded by python-dateutil.

Usage: rrule_oracle.py SEED COUNT. Prints one JSON object a line: the rule, DTSTART, the end of
the window, and dateutil's instances from DTSTART to that end (at most 200). Rules that
dateutil takes longer than 20 ms of this process's CPU time to expand (rules that almost never
produce) are left out, and so are rules it rejects. CPU time, not time on the clock, so that a
loaded machine leaves out the same rules as an idle one. Plain and ordinal BYDAY are not mixed (dateutil then requires both).
WEEKLY rules with BYSETPOS start on the week's first day (see below).
"""
import random, sys, json, datetime, signal
def timeout(*a): raise TimeoutError()
signal.signal(signal.SIGVTALRM, timeout)
# A test runner may hand its blocked signals down; the timer needs SIGVTALRM.
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGVTALRM})
from dateutil.rrule import rrulestr
seed = int(sys.argv[1]); n = int(sys.argv[2])
rnd = random.Random(seed)
FREQS = ["YEARLY","MONTHLY","WEEKLY","DAILY","HOURLY","MINUTELY","SECONDLY"]
WINDOW = {"YEARLY": 40*366, "MONTHLY": 8*366, "WEEKLY": 3*366, "DAILY": 366, "HOURLY": 20, "MINUTELY": 2, "SECONDLY": 0.1}
DAYS = ["MO","TU","WE","TH","FR","SA","SU"]
def pick(lo, hi, k, signed=False):
    vals = set()
    for _ in range(k):
        v = rnd.randint(lo, hi)
        if signed and rnd.random() < 0.4: v = -v
        vals.add(v)
    return ",".join(str(v) for v in sorted(vals))
for i in range(n):
    freq = rnd.choice(FREQS)
    parts = ["FREQ=" + freq]
    if rnd.random() < 0.4: parts.append("INTERVAL=%d" % rnd.randint(1, 5))
    if rnd.random() < 0.3: parts.append("COUNT=%d" % rnd.randint(1, 60))
    if rnd.random() < 0.3: parts.append("BYMONTH=" + pick(1, 12, rnd.randint(1, 4)))
    if freq == "YEARLY" and rnd.random() < 0.2: parts.append("BYWEEKNO=" + pick(1, 53, rnd.randint(1, 3), True))
    if rnd.random() < 0.2: parts.append("BYYEARDAY=" + pick(1, 366, rnd.randint(1, 4), True))
    if rnd.random() < 0.35: parts.append("BYMONTHDAY=" + pick(1, 31, rnd.randint(1, 4), True))
    if rnd.random() < 0.45:
        if freq in ("YEARLY", "MONTHLY") and rnd.random() < 0.5 and not any(p.startswith("BYWEEKNO") for p in parts):
            lim = 53 if freq == "YEARLY" and not any(p.startswith("BYMONTH=") for p in parts) else 5
            items = set()
            for _ in range(rnd.randint(1, 3)):
                o = rnd.randint(1, lim) * (-1 if rnd.random() < 0.4 else 1)
                items.add("%d%s" % (o, rnd.choice(DAYS)))
            parts.append("BYDAY=" + ",".join(sorted(items)))
        else:
            parts.append("BYDAY=" + ",".join(sorted(set(rnd.choice(DAYS) for _ in range(rnd.randint(1, 4))))))
    if rnd.random() < 0.25: parts.append("BYHOUR=" + pick(0, 23, rnd.randint(1, 3)))
    if rnd.random() < 0.25: parts.append("BYMINUTE=" + pick(0, 59, rnd.randint(1, 3)))
    if rnd.random() < 0.15: parts.append("BYSECOND=" + pick(0, 59, rnd.randint(1, 2)))
    if rnd.random() < 0.2: parts.append("BYSETPOS=" + pick(1, 4, rnd.randint(1, 2), True))
    if rnd.random() < 0.2: parts.append("WKST=" + rnd.choice(DAYS))
    start = datetime.datetime(rnd.randint(1990, 2030), rnd.randint(1, 12), rnd.randint(1, 28), rnd.randint(0, 23), rnd.randint(0, 59), rnd.randint(0, 59))
    if freq == "WEEKLY" and any(p.startswith("BYSETPOS") for p in parts):
        # dateutil's first WEEKLY period starts at DTSTART rather than at the week's start, so
        # BYSETPOS counts a different set there; a DTSTART on the week's first day avoids that.
        wkst = next((DAYS.index(p[5:]) for p in parts if p.startswith("WKST=")), 0)
        start -= datetime.timedelta(days=(start.weekday() - wkst) % 7)
    end = start + datetime.timedelta(days=WINDOW[freq])
    if rnd.random() < 0.15 and not any(p.startswith("COUNT") for p in parts):
        until = start + datetime.timedelta(days=WINDOW[freq] * rnd.random())
        parts.append("UNTIL=" + until.strftime("%Y%m%dT%H%M%S"))
    rule = ";".join(parts)
    try:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0.02)
        found = []
        for x in rrulestr(rule, dtstart=start):
            if x > end or len(found) == 200: break
            found.append(x)
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
    except Exception as error:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        continue
    print(json.dumps({"rule": rule, "start": start.strftime("%Y%m%dT%H%M%S"), "end": end.strftime("%Y%m%dT%H%M%S"),
                      "instances": [x.strftime("%Y%m%dT%H%M%S") for x in found]}))
