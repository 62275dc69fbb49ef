import Foundation
import Testing
@testable import InfCalModel
@testable import InfCalEvents
@testable import InfCalRender
@testable import InfCalPager
@testable import InfCalCLI

private let esc: UInt8 = 0x1B

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

@Suite struct KeyDecoderTests {
    @Test func plainKeys() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(bytes("n3?P ]")) == [.character("n"), .character("3"), .character("?"),
                                                  .character("P"), .character(" "), .character("]")])
        #expect(decoder.feed([0x0D, 0x0A, 0x7F, 0x08, 0x03, 0x0C]) == [.enter, .enter, .backspace, .backspace,
                                                                     .interrupt, .control(0x0C)])
        #expect(!decoder.hasPending)
    }

    struct Sequence: Sendable, CustomTestStringConvertible {
        let text: String
        let key: Key
        var testDescription: String { text.replacingOccurrences(of: "\u{1B}", with: "ESC ") }
    }

    static let sequences: [Sequence] = [
        .init(text: "\u{1B}[A", key: .up), .init(text: "\u{1B}[B", key: .down),
        .init(text: "\u{1B}[C", key: .right), .init(text: "\u{1B}[D", key: .left),
        .init(text: "\u{1B}OA", key: .up), .init(text: "\u{1B}OB", key: .down),
        .init(text: "\u{1B}OC", key: .right), .init(text: "\u{1B}OD", key: .left),
        .init(text: "\u{1B}[H", key: .home), .init(text: "\u{1B}OH", key: .home),
        .init(text: "\u{1B}[1~", key: .home), .init(text: "\u{1B}[7~", key: .home),
        .init(text: "\u{1B}[F", key: .end), .init(text: "\u{1B}OF", key: .end),
        .init(text: "\u{1B}[4~", key: .end), .init(text: "\u{1B}[8~", key: .end),
        .init(text: "\u{1B}[5~", key: .pageUp), .init(text: "\u{1B}[6~", key: .pageDown),
        .init(text: "\u{1B}[1;5C", key: .right), // Ctrl-Right: the modifier is ignored
        .init(text: "\u{1B}[2~", key: .unknown), // Insert
        .init(text: "\u{1B}OP", key: .unknown),  // F1
    ]

    @Test(arguments: sequences)
    func escapeSequence(_ sequence: Sequence) {
        var decoder = KeyDecoder()
        #expect(decoder.feed(bytes(sequence.text)) == [sequence.key])
        #expect(!decoder.hasPending)
    }

    @Test(arguments: sequences)
    func sequenceSplitAfterEveryByte(_ sequence: Sequence) {
        var decoder = KeyDecoder()
        var keys: [Key] = []
        for byte in bytes(sequence.text) { keys += decoder.feed([byte]) }
        #expect(keys == [sequence.key])
    }

    @Test func arrowSplitAcrossTwoReads() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([esc, UInt8(ascii: "[")]) == [])
        #expect(decoder.hasPending)
        #expect(decoder.feed(bytes("Cn")) == [.right, .character("n")])
        #expect(!decoder.hasPending)
    }

    @Test func pageDownSplitInsideItsParameter() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([esc, UInt8(ascii: "["), UInt8(ascii: "6")]) == [])
        #expect(decoder.feed(bytes("~")) == [.pageDown])
    }

    @Test func loneEscIsPendingUntilFlushed() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([esc]) == [])
        #expect(decoder.hasPending)
        #expect(decoder.flush() == [.escape])
        #expect(!decoder.hasPending)
        #expect(decoder.flush() == [])
    }

    /// Esc followed at once by another key is that key typed with Alt: no key, never a quit
    /// (the issue saw Alt+key quit the pager). Only a lone Esc is the Esc key.
    @Test func altKeyIsNotAnEsc() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([esc, UInt8(ascii: "q")]) == [.unknown])
        #expect(decoder.feed([esc, UInt8(ascii: "x"), UInt8(ascii: "n")]) == [.unknown, .character("n")])
        #expect(decoder.feed([esc] + bytes("é")) == [.unknown])
        #expect(!decoder.hasPending)
        #expect(decoder.feed([esc, esc] + bytes("[A")) == [.escape, .up])
        for key in decoder.feed([esc, UInt8(ascii: "v"), esc, UInt8(ascii: "q")]) {
            #expect(PagerBindings.action(for: key) == nil)
        }
    }

    /// SGR mouse reports (xterm 1006): the wheel pages, every other mouse event is nothing.
    @Test func mouseWheelReports() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(bytes("\u{1B}[<64;10;5M")) == [.wheelUp])
        #expect(decoder.feed(bytes("\u{1B}[<65;100;40M")) == [.wheelDown])
        // Ctrl held (16) is still the wheel; a press of the left button is a click at its cell
        // (the report counts from 1), its release nothing, another button nothing.
        #expect(decoder.feed(bytes("\u{1B}[<81;1;1M")) == [.wheelDown])
        #expect(decoder.feed(bytes("\u{1B}[<0;3;4M\u{1B}[<0;3;4m")) == [.click(ScreenPosition(row: 3, column: 2)), .unknown])
        #expect(decoder.feed(bytes("\u{1B}[<2;3;4M\u{1B}[<0;0;4M")) == [.unknown, .unknown])
        // Split across reads.
        #expect(decoder.feed(bytes("\u{1B}[<6")) == [])
        #expect(decoder.feed(bytes("5;2;2M")) == [.wheelDown])
        // The older X10 form: ESC [ M and three bytes, button 64 + 32 the wheel up.
        #expect(decoder.feed([esc] + bytes("[M") + [96, 40, 40]) == [.wheelUp])
        #expect(decoder.feed([esc] + bytes("[M") + [32 + 65]) == [])
        #expect(decoder.feed([40, 40, UInt8(ascii: "n")]) == [.wheelDown, .character("n")])
        #expect(PagerBindings.action(for: .wheelDown) == .nextMonth)
        #expect(PagerBindings.action(for: .wheelUp) == .previousMonth)
    }

    @Test func flushOfAnUnfinishedSequenceGivesEscThenTheRest() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([esc, UInt8(ascii: "[")]) == [])
        #expect(decoder.flush() == [.escape, .character("[")])
        #expect(!decoder.hasPending)
    }

    @Test func overlongOrBrokenSequencesAreDroppedAndDecodingGoesOn() {
        var decoder = KeyDecoder()
        let long = [esc, UInt8(ascii: "[")] + Array(repeating: UInt8(ascii: "1"), count: 30) + bytes("n")
        let keys = decoder.feed(long)
        #expect(keys.first == .unknown)
        #expect(keys.last == .character("n"))
        // A control byte inside a sequence ends it.
        #expect(decoder.feed([esc, UInt8(ascii: "["), 0x0D]) == [.unknown, .enter])
    }

    @Test func utf8CharacterSplitAcrossReads() {
        var decoder = KeyDecoder()
        let e = bytes("é")
        #expect(decoder.feed([e[0]]) == [])
        #expect(decoder.feed([e[1]]) == [.character("é")])
        #expect(decoder.feed([0xFF]) == [.unknown])
        #expect(decoder.feed([e[0]]) == [])
        #expect(decoder.flush() == [.unknown])
    }

    @Test func keyNames() {
        #expect(Key.character(" ").name == "Space")
        #expect(Key.control(0x0C).name == "Ctrl-L")
        #expect(Key.pageDown.name == "PageDown")
        #expect(Key.interrupt.name == "Ctrl-C")
    }
}
