import InfCalModel
import InfCalEvents

/// Drawing a calendar's colour on a terminal.
extension CalendarColor {
    /// The levels of xterm's 6x6x6 colour cube (palette 16-231), as its `256colres.pl` makes them.
    static let cubeLevels: [Int] = [0x00, 0x5f, 0x87, 0xaf, 0xd7, 0xff]

    /// The SGR sequence that sets the foreground to this colour: 24-bit where `trueColor`
    /// (COLORTERM says the terminal has it), else the nearest of the 256-colour palette.
    public func foreground(trueColor: Bool) -> String {
        switch self {
        case .indexed(let index):
            return index < 8 ? "\u{1b}[3\(index)m" : index < 16 ? "\u{1b}[9\(index - 8)m" : "\u{1b}[38;5;\(index)m"
        case let .rgb(red, green, blue):
            if trueColor { return "\u{1b}[38;2;\(red);\(green);\(blue)m" }
            return "\u{1b}[38;5;\(Self.nearestIndex(red, green, blue))m"
        }
    }

    /// The SGR sequence that puts the foreground back to the terminal's default.
    public static let defaultForeground = "\u{1b}[39m"

    /// The index of the colour of palette 16-255 (the cube and the grey ramp, which every
    /// 256-colour terminal shows alike; 0-15 differ by terminal) nearest `red, green, blue`,
    /// by squared distance in RGB.
    public static func nearestIndex(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Int {
        let target = [Int(red), Int(green), Int(blue)]
        func distance(_ other: [Int]) -> Int { zip(target, other).map { ($0 - $1) * ($0 - $1) }.reduce(0, +) }
        // The nearest cube level of each component, then the nearest grey.
        let levels = target.map { value in cubeLevels.indices.min { abs(cubeLevels[$0] - value) < abs(cubeLevels[$1] - value) } ?? 0 }
        let cube = levels.map { cubeLevels[$0] }
        let cubeIndex = 16 + 36 * levels[0] + 6 * levels[1] + levels[2]
        let average = target.reduce(0, +) / 3
        let greyStep = max(0, min(23, (average - 8 + 5) / 10))
        let grey = 8 + 10 * greyStep
        return distance([grey, grey, grey]) < distance(cube) ? 232 + greyStep : cubeIndex
    }
}
