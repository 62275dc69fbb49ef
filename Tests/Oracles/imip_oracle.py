#!/usr/bin/env python3
"""The independent reader of the iMIP tests: Python's email package and icalendar.

    imip_oracle.py calendar FILE   the iCalendar object FILE, as icalendar reads it
    imip_oracle.py mail FILE       the mail message FILE, as the email package reads it, and
                                   its calendar parts as icalendar reads them

One fact a line ("NAME value"), in the order found. A calendar: METHOD, then per component
its name, UID, SEQUENCE, DTSTAMP, RECURRENCE-ID and DTSTART (UTC), ORGANIZER, each ATTENDEE
with PARTSTAT and RSVP, COMMENT; a message: its header fields (decoded), the longest line,
each leaf part's type, method, charset and transfer encoding, the text of text/plain parts,
then each calendar part as above. Used by the invitation tests (Tests/InfCalKitTests/
Invitations); exits 3 when icalendar is missing.
"""
import sys

try:
    import icalendar
except ImportError:
    sys.exit(3)
import email
import email.policy

from ical_times import utc  # the same form of times as the other oracle (this script's folder)


def calendar(data):
    cal = icalendar.Calendar.from_ical(data)
    print("METHOD", cal.get("METHOD", "-"))
    for component in cal.subcomponents:
        print("COMPONENT", component.name)
        if component.name == "VTIMEZONE":
            print("TZID", component.get("TZID"))
            continue
        for name in ("UID", "SEQUENCE", "SUMMARY"):
            if name in component:
                print(name, component.get(name))
        for name in ("DTSTAMP", "RECURRENCE-ID", "DTSTART", "DTEND"):
            if name in component:
                print(name, utc(component.get(name)))
        if "ORGANIZER" in component:
            print("ORGANIZER", str(component.get("ORGANIZER")))
        attendees = component.get("ATTENDEE", [])
        if not isinstance(attendees, list):
            attendees = [attendees]
        for attendee in attendees:
            print("ATTENDEE", str(attendee), "PARTSTAT=" + str(attendee.params.get("PARTSTAT", "-")),
                  "RSVP=" + str(attendee.params.get("RSVP", "-")))
        if "COMMENT" in component:
            print("COMMENT", repr(str(component.get("COMMENT"))))
        if "STATUS" in component:
            print("STATUS", component.get("STATUS"))


def mail(data):
    message = email.message_from_bytes(data, policy=email.policy.default)
    for name in ("From", "To", "Subject", "Date", "Message-ID", "In-Reply-To", "MIME-Version"):
        if message[name] is not None:
            print("HEADER", name + ":", str(message[name]))
    print("DEFECTS", len(message.defects))
    print("LONGEST", max(len(line) for line in data.split(b"\r\n")))
    print("CRLF", b"\n" not in data.replace(b"\r\n", b""))
    calendars = []
    for part in message.walk():
        if part.is_multipart():
            print("MULTIPART", part.get_content_type())
            continue
        print("PART", part.get_content_type(), part.get_param("method") or "-", part.get_content_charset() or "-",
              part["Content-Transfer-Encoding"] or "-")
        if part.get_content_type() == "text/plain":
            print("TEXT", repr(part.get_content()))
        if part.get_content_type() in ("text/calendar", "application/ics") or (part.get_filename() or "").endswith(".ics"):
            calendars.append(part.get_payload(decode=True))
    for payload in calendars:
        calendar(payload)


def main(arguments):
    if len(arguments) != 2 or arguments[0] not in ("calendar", "mail"):
        sys.exit("usage: imip_oracle.py calendar|mail FILE")
    with open(arguments[1], "rb") as handle:
        data = handle.read()
    (calendar if arguments[0] == "calendar" else mail)(data)


if __name__ == "__main__":
    main(sys.argv[1:])
