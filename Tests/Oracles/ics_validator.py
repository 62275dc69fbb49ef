"""Validator of the calendar files infcal writes: Python's icalendar reads them, and the rules
of RFC 5545 the write tests care about are checked here, independently of infcal's code.

Usage: ics_validator.py AFTER [BEFORE]

AFTER is the file as a write left it; BEFORE, when given, the same file before the write (a
missing or empty BEFORE: the write made the file). Prints one JSON object:

  {"problems": [...], "added": [UID...], "changed": [UID...], "removed": [UID...],
   "zonesAdded": [TZID...], "zonesRemoved": [TZID...]}

and exits 0 when "problems" is empty, 1 when not, 77 when icalendar is not installed (the
test then skips, saying so).

What is compared: the file is cut into top-level items, each a VEVENT or VTIMEZONE block
(its lines, folds and line ends, as bytes) or a line outside them. Aligned with BEFORE's
items (difflib), every difference must be whole VEVENT or VTIMEZONE blocks: any other byte
that changed is a problem ("the file before and after, byte for byte, except the changed
components"). The components reported added, changed and removed are those blocks, by UID
(TZID for zones); a test checks they are the ones it meant to change.

What is checked of every VEVENT the write wrote (one not in BEFORE byte for byte):
  - RFC 5545 3.6.1: UID, DTSTAMP and DTSTART present (DTSTART: no METHOD in these files);
  - 3.8.7.2: DTSTAMP a UTC DATE-TIME (and CREATED, LAST-MODIFIED, 3.8.7.1, 3.8.7.3);
  - 3.3.10: RRULE's UNTIL of DTSTART's value type: a DATE for a DATE DTSTART, a UTC
    DATE-TIME for a UTC or TZID DTSTART, a local (floating) DATE-TIME for a floating one;
  - 3.8.7.4 (and RFC 5546's use of it): an override (RECURRENCE-ID) SEQUENCE at least its
    master's, and a new override (its UID had fewer overrides before) strictly above it;
and of every line the write wrote (one not in BEFORE): at most 75 octets without its line
end (3.1), ending in CRLF (3.1), or in LF where BEFORE used LF throughout (infcal keeps a
file's own line ends, as its README says). A file the write made must be CRLF throughout,
with VERSION and PRODID (3.6). icalendar must read the file without errors (the whole file;
above 8 MB only the components written, with the file's VTIMEZONEs).
"""
import datetime, difflib, json, re, sys

try:
    import icalendar
except ImportError:
    print(json.dumps({"skipped": "python3 has no icalendar (pip install icalendar)"}))
    sys.exit(77)

WHOLE_FILE_LIMIT = 8 << 20
problems = []


def problem(text):
    problems.append(text)


def physical_lines(data):
    """The file's lines, each with its line end (CRLF, LF or CR)."""
    return data.splitlines(keepends=True)


def content(line):
    return line.rstrip(b"\r\n")


def items(data):
    """Top-level items: ("block", NAME, bytes, [lines]) for a VEVENT or VTIMEZONE, ("line", bytes) otherwise."""
    result = []
    lines = physical_lines(data)
    index = 0
    while index < len(lines):
        text = content(lines[index]).upper()
        name = None
        for candidate in (b"VEVENT", b"VTIMEZONE"):
            if text == b"BEGIN:" + candidate:
                name = candidate.decode()
        if name is None:
            result.append(("line", lines[index]))
            index += 1
            continue
        end = index
        while end < len(lines) and content(lines[end]).upper() != ("END:" + name).encode():
            end += 1
        block = lines[index:end + 1]
        result.append(("block", name, b"".join(block), block))
        index = end + 1
    return result


def unfolded(block_lines):
    """The block's content lines, unfolded (3.1), as text."""
    logical = []
    for line in block_lines:
        text = content(line).decode("utf-8", "replace")
        if text[:1] in (" ", "\t") and logical:
            logical[-1] += text[1:]
        else:
            logical.append(text)
    return logical


def properties(block_lines):
    """(NAME, {PARAM: value}, value) of the block's own lines (not those of a nested VALARM)."""
    result = []
    depth = 0
    for line in unfolded(block_lines):
        match = re.match(r"([A-Za-z0-9-]+)((?:;[^:]*)?):(.*)$", line)
        if not match:
            continue
        name = match.group(1).upper()
        if name == "BEGIN":
            depth += 1
            continue
        if name == "END":
            depth -= 1
            continue
        if depth != 1:
            continue
        params = {}
        for part in re.findall(r';([^;=]+)=("[^"]*"|[^;]*)', match.group(2)):
            params[part[0].upper()] = part[1].strip('"')
        result.append((name, params, match.group(3)))
    return result


def first(props, name):
    for prop in props:
        if prop[0] == name:
            return prop
    return None


def uid_of(block_lines):
    prop = first(properties(block_lines), "UID")
    return prop[2].strip() if prop else ""


def tzid_of(block_lines):
    prop = first(properties(block_lines), "TZID")
    return prop[2].strip() if prop else ""


def key(item):
    return (item[0], item[2] if item[0] == "block" else item[1])


def value_kind(value, raw, params=None):
    """'date', 'utc', 'zoned' or 'local' for an icalendar-decoded DATE or DATE-TIME and its
    text (a UTC time ends in Z; a TZID icalendar does not know still makes a zoned time)."""
    if isinstance(value, datetime.datetime):
        if raw.strip().upper().endswith("Z"):
            return "utc" if value.tzinfo is not None and value.utcoffset() == datetime.timedelta(0) else "unknown"
        if value.tzinfo is not None or (params and "TZID" in params):
            return "zoned"
        return "local"
    if isinstance(value, datetime.date):
        return "date"
    return "unknown"


def check_event(event, block_lines, label, is_override_new, master_sequence):
    props = properties(block_lines)
    for name in ("UID", "DTSTAMP", "DTSTART"):
        if first(props, name) is None:
            problem(f"{label}: no {name} (RFC 5545 3.6.1)")
    for name in ("DTSTAMP", "CREATED", "LAST-MODIFIED"):
        prop = first(props, name)
        if prop is None:
            continue
        raw_ok = re.fullmatch(r"\d{8}T\d{6}Z", prop[2].strip()) is not None and not prop[1]
        decoded = event.get(name)
        kind = value_kind(decoded.dt, prop[2], prop[1]) if decoded is not None and hasattr(decoded, "dt") else "unknown"
        if not raw_ok or kind != "utc":
            problem(f"{label}: {name} '{prop[2]}' is no UTC DATE-TIME (RFC 5545 3.8.7)")
    start = first(props, "DTSTART")
    rule = first(props, "RRULE")
    if start is not None and rule is not None and "UNTIL" in event.get("RRULE", {}):
        start_kind = value_kind(event["DTSTART"].dt, start[2], start[1])
        raw_until = re.search(r"UNTIL=([^;]*)", rule[2].upper())
        raw_until = raw_until.group(1) if raw_until else ""
        until_kind = value_kind(event["RRULE"]["UNTIL"][0], raw_until)
        wanted = {"date": "date", "utc": "utc", "zoned": "utc", "local": "local"}.get(start_kind)
        if until_kind != wanted or (wanted == "utc" and not raw_until.endswith("Z")) \
                or (wanted == "local" and raw_until.endswith("Z")):
            problem(f"{label}: UNTIL={raw_until} is {until_kind}, DTSTART is {start_kind}: RFC 5545 3.3.10 wants {wanted}")
    if first(props, "RECURRENCE-ID") is not None and master_sequence is not None:
        prop = first(props, "SEQUENCE")
        sequence = int(prop[2].strip()) if prop and re.fullmatch(r"\s*-?\d+\s*", prop[2]) else 0
        if sequence < master_sequence:
            problem(f"{label}: override SEQUENCE {sequence} is below its master's {master_sequence}")
        if is_override_new and sequence <= master_sequence:
            problem(f"{label}: a new override's SEQUENCE {sequence} is not above its master's {master_sequence}")


def main():
    after_path = sys.argv[1]
    before = b""
    if len(sys.argv) > 2:
        try:
            with open(sys.argv[2], "rb") as f:
                before = f.read()
        except FileNotFoundError:
            before = b""
    with open(after_path, "rb") as f:
        after = f.read()
    created = len(before) == 0
    after_items, before_items = items(after), items(before)

    # Every difference is whole VEVENT or VTIMEZONE blocks.
    matcher = difflib.SequenceMatcher(None, [key(i) for i in before_items], [key(i) for i in after_items], autojunk=False)
    added, changed, removed, zones_added, zones_removed = [], [], [], [], []
    written_blocks = []
    for op, b1, b2, a1, a2 in matcher.get_opcodes():
        if op == "equal":
            continue
        old = before_items[b1:b2]
        new = after_items[a1:a2]
        for item in old + new:
            if item[0] != "block" and not created:
                problem(f"a line outside the components changed: {item[1][:80]!r}")
        old_events = [uid_of(i[3]) for i in old if i[0] == "block" and i[1] == "VEVENT"]
        for item in new:
            if item[0] == "block" and item[1] == "VEVENT":
                uid = uid_of(item[3])
                (changed if uid in old_events else added).append(uid)
                written_blocks.append(item)
            elif item[0] == "block":
                zones_added.append(tzid_of(item[3]))
                written_blocks.append(item)
        new_events = [uid_of(i[3]) for i in new if i[0] == "block" and i[1] == "VEVENT"]
        for item in old:
            if item[0] == "block" and item[1] == "VEVENT" and uid_of(item[3]) not in new_events:
                removed.append(uid_of(item[3]))
            elif item[0] == "block" and item[1] == "VTIMEZONE":
                zones_removed.append(tzid_of(item[3]))
    # A zone block replaced by one of the same TZID is a change, not an add and a remove.
    for tzid in list(zones_added):
        if tzid in zones_removed:
            zones_added.remove(tzid)
            zones_removed.remove(tzid)

    # Lines the write wrote: length and line ends.
    before_lines = {}
    for line in physical_lines(before):
        before_lines[line] = before_lines.get(line, 0) + 1
    lf_only = not created and b"\r\n" not in before and b"\n" in before
    for number, line in enumerate(physical_lines(after), 1):
        if before_lines.get(line, 0) > 0:
            before_lines[line] -= 1
            continue
        if len(content(line)) > 75:
            problem(f"line {number}: {len(content(line))} octets, more than 75 (RFC 5545 3.1): {content(line)[:60]!r}")
        ending = line[len(content(line)):]
        wanted = b"\n" if lf_only else b"\r\n"
        if ending != wanted:
            problem(f"line {number}: ends in {ending!r}, not {wanted!r}")
    if created:
        if b"\n" in after.replace(b"\r\n", b""):
            problem("a file infcal made has a line not ended by CRLF (RFC 5545 3.1)")
        calendar_lines = [content(l).upper() for l in physical_lines(after)]
        for name in (b"VERSION:", b"PRODID:"):
            if not any(l.startswith(name) for l in calendar_lines):
                problem(f"a file infcal made has no {name.decode()[:-1]} (RFC 5545 3.6)")

    # icalendar reads it.
    zones = b"".join(i[2] for i in after_items if i[0] == "block" and i[1] == "VTIMEZONE")
    try:
        if len(after) <= WHOLE_FILE_LIMIT:
            calendars = icalendar.Calendar.from_ical(after, multiple=True)
        else:
            written = b"".join(i[2] for i in written_blocks if i[1] == "VEVENT")
            calendars = icalendar.Calendar.from_ical(b"BEGIN:VCALENDAR\r\n" + zones + written + b"END:VCALENDAR\r\n", multiple=True)
    except Exception as error:  # icalendar's own ValueError and kin
        problem(f"icalendar cannot read the file: {error}")
        calendars = []
    for calendar in calendars:
        for component in calendar.walk():
            for error in getattr(component, "errors", []):
                problem(f"icalendar: {component.name}: {error}")

    # The VEVENTs written, read by icalendar one by one (with the file's zones).
    all_events = [i for i in after_items if i[0] == "block" and i[1] == "VEVENT"]
    before_events = [i for i in before_items if i[0] == "block" and i[1] == "VEVENT"]
    masters = {}
    for item in all_events:
        props = properties(item[3])
        if first(props, "RECURRENCE-ID") is None:
            sequence = first(props, "SEQUENCE")
            masters[uid_of(item[3])] = int(sequence[2].strip()) if sequence and re.fullmatch(r"\s*-?\d+\s*", sequence[2]) else 0

    def override_count(events, uid):
        return sum(1 for i in events if uid_of(i[3]) == uid and first(properties(i[3]), "RECURRENCE-ID") is not None)

    before_ids = {(uid_of(i[3]), (first(properties(i[3]), "RECURRENCE-ID") or ("", {}, ""))[2]) for i in before_events}
    for item in written_blocks:
        if item[1] != "VEVENT":
            continue
        uid = uid_of(item[3])
        label = f"VEVENT {uid!r}"
        try:
            parsed = icalendar.Calendar.from_ical(b"BEGIN:VCALENDAR\r\n" + zones + item[2] + b"END:VCALENDAR\r\n")
            event = next(iter(parsed.walk("VEVENT")))
        except Exception as error:
            problem(f"{label}: icalendar cannot read it: {error}")
            continue
        rid = first(properties(item[3]), "RECURRENCE-ID")
        is_new = rid is not None and (uid, rid[2]) not in before_ids \
            and override_count(all_events, uid) > override_count(before_events, uid)
        check_event(event, item[3], label, is_new, masters.get(uid))

    def once(names):
        return list(dict.fromkeys(names))

    print(json.dumps({"problems": problems, "added": once(added), "changed": once(changed), "removed": once(removed),
                      "zonesAdded": once(zones_added), "zonesRemoved": once(zones_removed)}))
    sys.exit(1 if problems else 0)


main()
