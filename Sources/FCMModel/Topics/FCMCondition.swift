/// A topic condition, `'a' in topics && ('b' in topics || !('c' in topics))`, parsed (fcm-rules §3.5).
///
/// The grammar: a term is a topic name in single or double quotes followed by `in topics`; terms combine with
/// `!`, `&&`, `||` and parentheses; whitespace is free. At most ``maximumTopics`` terms (FCM: "up to five topics").
/// `&&` binds tighter than `||`, as in the C family the syntax comes from; FCM's page says only that parentheses go
/// first and the rest "from left to right", which agrees on every expression without a bare `a || b && c` (the
/// mock's reading of that case is written in fcm-rules §3.5).
///
/// The text comes from the wire: parentheses nest at most ``maximumDepth`` deep, so a body of `((((…` cannot
/// exhaust the stack.
public struct FCMCondition: Sendable, Hashable {
    /// The condition as the sender wrote it.
    public let text: String
    /// The topics it names, each once, in the order first named.
    public let topics: [String]
    private let root: Node

    /// The most topic terms a condition may have.
    public static let maximumTopics = 5
    /// The deepest nesting of parentheses and `!` accepted.
    public static let maximumDepth = 32

    indirect enum Node: Sendable, Hashable {
        case topic(String)
        case not(Node)
        case and(Node, Node)
        case or(Node, Node)

        func matches(_ subscribed: Set<String>) -> Bool {
            switch self {
            case .topic(let name): return subscribed.contains(name)
            case .not(let node): return !node.matches(subscribed)
            case .and(let left, let right): return left.matches(subscribed) && right.matches(subscribed)
            case .or(let left, let right): return left.matches(subscribed) || right.matches(subscribed)
            }
        }
    }

    /// Parses `text`; throws 400 `INVALID_ARGUMENT` (field `message.condition`) saying what is wrong and where.
    public static func parse(_ text: String, maximumTopics: Int = FCMCondition.maximumTopics) throws(FCMError) -> FCMCondition {
        var parser = Parser(bytes: Array(text.utf8))
        do throws(ConditionProblem) {
            let root = try parser.expression(depth: 0)
            parser.skipSpace()
            guard parser.index == parser.bytes.count else { throw parser.fail("unexpected text") }
            guard parser.terms <= maximumTopics else {
                throw ConditionProblem(position: nil, what: "it names \(parser.terms) topics; a condition may name at most \(maximumTopics)")
            }
            var seen = Set<String>()
            let topics = parser.names.filter { seen.insert($0).inserted }
            return FCMCondition(text: text, topics: topics, root: root)
        } catch {
            let place = error.position.map { " at character \($0 + 1)" } ?? ""
            throw FCMError.invalidArgument("Invalid condition \(FCMTopic.quoted(text)): \(error.what)\(place).",
                                           field: "message.condition")
        }
    }

    /// Whether a device subscribed to `subscribedTopics` receives a message sent to this condition.
    public func matches(subscribedTopics: Set<String>) -> Bool {
        root.matches(subscribedTopics)
    }

    struct ConditionProblem: Error {
        var position: Int?
        var what: String
    }

    /// A recursive-descent parser over the condition's bytes.
    struct Parser {
        let bytes: [UInt8]
        var index = 0
        var terms = 0
        var names: [String] = []

        /// or := and ('||' and)*
        mutating func expression(depth: Int) throws(ConditionProblem) -> Node {
            var node = try conjunction(depth: depth)
            while take("||") { node = .or(node, try conjunction(depth: depth)) }
            return node
        }

        /// and := unary ('&&' unary)*
        mutating func conjunction(depth: Int) throws(ConditionProblem) -> Node {
            var node = try unary(depth: depth)
            while take("&&") { node = .and(node, try unary(depth: depth)) }
            return node
        }

        /// unary := '!' unary | '(' or ')' | term
        mutating func unary(depth: Int) throws(ConditionProblem) -> Node {
            guard depth < FCMCondition.maximumDepth else { throw fail("parentheses nest deeper than \(FCMCondition.maximumDepth)") }
            if take("!") { return .not(try unary(depth: depth + 1)) }
            if take("(") {
                let node = try expression(depth: depth + 1)
                guard take(")") else { throw fail("expected ')'") }
                return node
            }
            return try term()
        }

        /// term := quote name quote 'in' 'topics'
        mutating func term() throws(ConditionProblem) -> Node {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "'") || bytes[index] == UInt8(ascii: "\"") else {
                throw fail(index < bytes.count ? "expected a quoted topic name, '!' or '('" : "the condition ends too early")
            }
            let quote = bytes[index]
            let start = index + 1
            var end = start
            while end < bytes.count, bytes[end] != quote {
                guard FCMTopic.isNameByte(bytes[end]) else {
                    index = end
                    throw fail("a topic name is one or more of a-z A-Z 0-9 - _ . ~ %")
                }
                end += 1
            }
            guard end < bytes.count else { throw fail("the topic name's quote is not closed") }
            guard end > start else { throw fail("empty topic name") }
            let name = String(decoding: bytes[start..<end], as: UTF8.self)
            index = end + 1
            guard word("in"), word("topics") else { throw fail("expected 'in topics' after the topic name") }
            terms += 1
            names.append(name)
            return .topic(name)
        }

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
                index += 1
            }
        }

        /// Consumes `symbol` after optional whitespace.
        mutating func take(_ symbol: StaticString) -> Bool {
            skipSpace()
            let count = symbol.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            for offset in 0..<count where bytes[index + offset] != symbol.utf8Start[offset] { return false }
            index += count
            return true
        }

        /// Consumes the keyword `keyword`: whitespace before it, and no name character right after it.
        mutating func word(_ keyword: StaticString) -> Bool {
            let saved = index
            guard take(keyword) else { return false }
            if index < bytes.count, FCMTopic.isNameByte(bytes[index]) {
                index = saved
                return false
            }
            return true
        }

        func fail(_ what: String) -> ConditionProblem {
            ConditionProblem(position: index, what: what)
        }
    }
}
