/// Prints rows as aligned columns; cells may carry ANSI escapes, which do not count towards width.
struct TablePrinter {
    /// Column titles.
    let headers: [String]
    /// Body rows; each has as many cells as ``headers``.
    var rows: [[String]] = []
    /// Widths columns get even when their cells are narrower (so separately printed rows line up).
    let minimumWidths: [Int]

    /// Makes a table with these column titles.
    init(headers: [String], minimumWidths: [Int] = []) {
        self.headers = headers
        self.minimumWidths = minimumWidths
    }

    /// Adds a row.
    mutating func append(_ row: [String]) {
        rows.append(row)
    }

    /// The table as lines (title row first), columns separated by two spaces, the last not padded.
    func render(style: TerminalStyle) -> String {
        var layout = TableLayout(headers: headers, minimumWidths: minimumWidths)
        for row in rows { layout.measure(row) }
        var lines = [style.bold(layout.line(headers))]
        lines += rows.map(layout.line)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Characters shown on screen: everything outside `ESC [ … m` sequences.
    static func visibleWidth(_ text: String) -> Int {
        var width = 0
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if scalar == "m" { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
            } else {
                width += 1
            }
        }
        return width
    }
}
