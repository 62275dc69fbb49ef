/// One row of the results table.
struct Row {
    var measure: String
    var infcal: String
    var ncal = "-"
    var python = "-"
    var ratio = "-"
    var target = "-"
    /// "met", "NOT MET", or "-" where there is no target.
    var met = "-"
}

/// The results table and the notes that say what each row ran.
struct Report {
    var rows: [Row] = []
    var notes: [String] = []

    static let headings = Row(measure: "measure", infcal: "infcal", ncal: "ncal -C", python: "python3 calendar",
                              ratio: "infcal/ncal", target: "target", met: "met")

    /// The table as Markdown, columns padded so that it also reads as plain text.
    func table() -> String {
        let all = [Self.headings] + rows
        let cells = all.map { [$0.measure, $0.infcal, $0.ncal, $0.python, $0.ratio, $0.target, $0.met] }
        let widths = (0..<7).map { column in cells.map { $0[column].count }.max() ?? 0 }
        func line(_ row: [String]) -> String {
            "| " + zip(row, widths).enumerated().map { index, pair in
                let (text, width) = pair
                let padding = String(repeating: " ", count: width - text.count)
                // Text columns to the left, numbers to the right.
                return index == 0 || index == 5 || index == 6 ? text + padding : padding + text
            }.joined(separator: " | ") + " |"
        }
        let rule = "|" + widths.enumerated().map { index, width in
            index == 0 || index == 5 || index == 6 ? ":" + String(repeating: "-", count: width + 1) : String(repeating: "-", count: width + 1) + ":"
        }.joined(separator: "|") + "|"
        return ([line(cells[0]), rule] + cells.dropFirst().map(line)).joined(separator: "\n")
    }
}

// MARK: Statistics and formats

/// `value` with `decimals` decimals and thousands separated by commas.
func format(_ value: Double, decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    let whole = Int(rounded.magnitude)
    var digits = String(whole)
    var grouped = ""
    while digits.count > 3 {
        grouped = "," + digits.suffix(3) + grouped
        digits.removeLast(3)
    }
    grouped = digits + grouped
    if decimals > 0 {
        let fraction = Int(((rounded.magnitude - Double(whole)) * scale).rounded())
        let text = String(fraction)
        grouped += "." + String(repeating: "0", count: max(0, decimals - text.count)) + text
    }
    return (rounded < 0 ? "-" : "") + grouped
}

/// Seconds as milliseconds: "151.3 ms".
func milliseconds(_ seconds: Double, decimals: Int = 1) -> String {
    format(seconds * 1000, decimals: decimals) + " ms"
}

/// KiB as MiB: "7.9 MiB".
func mebibytes(_ kibibytes: Double) -> String {
    format(kibibytes / 1024, decimals: 1) + " MiB"
}
