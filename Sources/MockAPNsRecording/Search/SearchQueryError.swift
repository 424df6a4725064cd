/// Why a search query could not be parsed; the description is a sentence to show the person who typed it.
public struct SearchQueryError: Error, Equatable, CustomStringConvertible {
    /// The sentence.
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
