import Testing
@testable import InfCalEvents

/// The names of an RRULE: RFC 5545 §3.3.10's seven FREQ values (`freq = "SECONDLY" /
/// "MINUTELY" / "HOURLY" / "DAILY" / "WEEKLY" / "MONTHLY" / "YEARLY"`), matched without
/// regard to case as §3.1 says of names; "each rule part MUST NOT occur more than once", which
/// holds for the standard parts and for the X- ones, while distinct X- parts are ignored.
@Suite struct RuleNamesTests {
    @Test(arguments: [("SECONDLY", RecurrenceRule.Frequency.secondly), ("MINUTELY", .minutely), ("HOURLY", .hourly),
                      ("DAILY", .daily), ("WEEKLY", .weekly), ("MONTHLY", .monthly), ("yearly", .yearly)])
    func frequencies(name: String, frequency: RecurrenceRule.Frequency) throws {
        #expect(try RecurrenceRule.parse("FREQ=\(name)")?.frequency == frequency)
    }

    @Test(arguments: ["FREQ=FORTNIGHTLY", "FREQ=", "INTERVAL=2"])
    func noKnownFrequency(text: String) {
        #expect(throws: ICalError.self) { try RecurrenceRule.parse(text) }
    }

    @Test(arguments: ["FREQ=DAILY;FREQ=DAILY", "FREQ=DAILY;INTERVAL=2;interval=3", "FREQ=DAILY;X-A=1;X-B=2;X-A=3"])
    func partGivenTwice(text: String) {
        #expect(throws: ICalError.self) { try RecurrenceRule.parse(text) }
    }

    @Test func distinctExtensionPartsAreIgnored() throws {
        let parts = (0..<300).map { "X-P\($0)=\($0)" }.joined(separator: ";")
        let rule = try RecurrenceRule.parse("FREQ=WEEKLY;INTERVAL=2;\(parts);COUNT=4")
        #expect(rule?.frequency == .weekly)
        #expect(rule?.interval == 2)
        #expect(rule?.count == 4)
    }
}
