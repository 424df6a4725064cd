/// Column widths of a table and how one row is laid out in them: measured over every row first, then rows are
/// printed one at a time, so `list` can print a table of a million records without holding its rows.
struct TableLayout {
    /// Column titles.
    let headers: [String]
    /// The width of each column so far: its widest cell, title or minimum.
    private(set) var widths: [Int]

    /// A layout as wide as the titles (and `minimumWidths`, where given).
    init(headers: [String], minimumWidths: [Int] = []) {
        self.headers = headers
        widths = headers.enumerated().map { index, title in
            max(TablePrinter.visibleWidth(title), index < minimumWidths.count ? minimumWidths[index] : 0)
        }
    }

    /// Widens the columns to fit `row`.
    mutating func measure(_ row: [String]) {
        for (index, cell) in row.enumerated() where index < widths.count {
            widths[index] = max(widths[index], TablePrinter.visibleWidth(cell))
        }
    }

    /// `cells` padded to the widths, separated by two spaces, the last not padded (no newline).
    func line(_ cells: [String]) -> String {
        var out = ""
        for (index, cell) in cells.enumerated() {
            out += cell
            if index < cells.count - 1 {
                out += String(repeating: " ", count: widths[index] - TablePrinter.visibleWidth(cell) + 2)
            }
        }
        while out.last == " " { out.removeLast() }
        return out
    }
}
