import InfCalModel
import InfCalEvents
import InfCalRender

/// One key press, as the pager sees it once the terminal's bytes are decoded.
public enum Key: Hashable, Sendable {
    /// A printable character: a letter, a digit, punctuation or a space.
    case character(Character)
    /// Enter or Return (CR or LF).
    case enter
    /// Backspace (DEL or BS).
    case backspace
    /// A lone Esc, told apart from the start of an escape sequence by the time that follows it.
    case escape
    /// Ctrl-C as a byte (it arrives as a byte only when the terminal does not turn it into SIGINT).
    case interrupt
    case up, down, left, right
    case home, end
    case pageUp, pageDown
    /// The mouse wheel turned away from the user (up) or towards (down), reported only with
    /// `--mouse`.
    case wheelUp, wheelDown
    /// A press of the left mouse button at a cell (from 0), reported only with `--mouse`.
    case click(ScreenPosition)
    /// Another control key, as its byte: 0x0C is Ctrl-L, 0x09 Tab.
    case control(UInt8)
    /// A byte or an escape sequence infcal has no use for (F1, Insert, a broken sequence).
    case unknown

    /// How the help screen names the key: `n`, `Right`, `Space`, `Ctrl-C`.
    public var name: String {
        switch self {
        case .character(" "): return "Space"
        case .character(let character): return String(character)
        case .enter: return "Enter"
        case .backspace: return "Backspace"
        case .escape: return "Esc"
        case .interrupt: return "Ctrl-C"
        case .up: return "Up"
        case .down: return "Down"
        case .left: return "Left"
        case .right: return "Right"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PageUp"
        case .pageDown: return "PageDown"
        case .wheelUp: return "WheelUp"
        case .wheelDown: return "WheelDown"
        case .click: return "Click"
        case .control(0x09): return "Tab"
        case .control(let byte) where (1...26).contains(byte):
            return "Ctrl-" + String(UnicodeScalar(byte + 0x40))
        case .control(let byte): return "Ctrl-0x" + String(byte, radix: 16)
        case .unknown: return "unknown key"
        }
    }
}
