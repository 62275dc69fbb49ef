import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager
import InfCalCLI

/// The terminal the pager runs on: keys from the controlling terminal, frames to standard
/// output, and while it is active, raw mode, the alternate screen and a hidden cursor.
///
/// The terminal's settings are read once, when it is opened, and `leave()` puts back exactly
/// those; `enter()` always derives raw mode from them, so a stop and continue (Ctrl-Z, fg)
/// cannot drift the settings.
final class RawTerminal {
    /// The controlling terminal, where keys are read.
    let input: Int32
    /// Standard output, where frames go.
    let output: FileOutput
    /// The settings found at start, restored on every way out.
    private let saved: Platform.TerminalModes
    /// Whether the terminal is asked to report the mouse wheel while active.
    let mouse: Bool
    /// Whether raw mode and the alternate screen are on.
    private(set) var isActive = false

    /// Opens the controlling terminal and saves its settings.
    /// - returns: nil when there is no controlling terminal or it will not give its settings.
    init?(output: FileOutput, mouse: Bool = false) {
        guard let input = Platform.openControllingTerminal() else { return nil }
        guard let saved = Platform.terminalModes(input) else {
            Platform.closeDescriptor(input)
            return nil
        }
        self.input = input
        self.output = output
        self.saved = saved
        self.mouse = mouse
    }

    deinit {
        leave()
        Platform.closeDescriptor(input)
    }

    /// The terminal's size: standard output's, else the controlling terminal's, else 80x24.
    var size: TerminalSize {
        let size = Platform.windowSize(output.fd) ?? Platform.windowSize(input) ?? (80, 24)
        return TerminalSize(columns: size.columns, rows: size.rows)
    }

    /// Raw mode, the alternate screen and a hidden cursor (again, after a stop).
    /// - throws: a write error when the terminal takes no output.
    func enter() throws {
        Platform.setTerminalModes(input, Platform.pagerModes(from: saved))
        isActive = true
        try output.write(TerminalCodes.enter + (mouse ? TerminalCodes.mouseOn : ""))
    }

    /// Back to the normal screen, cursor shown, the saved settings restored. Errors are
    /// ignored: this runs on the way out, also when the terminal has hung up.
    func leave() {
        guard isActive else { return }
        isActive = false
        // Mouse reporting off first: a terminal left reporting fills the shell with escapes.
        try? output.write((mouse ? TerminalCodes.mouseOff : "") + TerminalCodes.leave)
        Platform.setTerminalModes(input, saved)
    }
}
