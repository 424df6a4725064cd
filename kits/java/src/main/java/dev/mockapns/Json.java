package dev.mockapns;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict RFC 8259 JSON reader and writer, because the JDK has none and the kit depends on nothing else.
 *
 * <p>Reading gives plain Java values: {@code Map<String, Object>} (a {@link LinkedHashMap}, members in wire order),
 * {@code List<Object>}, {@link String}, {@link Long} (an integer without fraction or exponent that fits 64 bits),
 * {@link Double} (every other number), {@link Boolean} and {@code null}. These are the mock's own rules (its JSON
 * module), so a record reads here as the mock wrote it. Strictness: exactly one value with optional whitespace around
 * it; no comments, trailing commas, BOM, single quotes or leading zeros; control characters in strings must be
 * escaped, escapes must be valid and a {@code \\u} surrogate must be paired; numbers must be finite; nesting deeper
 * than {@value #MAXIMUM_DEPTH} is refused. A duplicate object key keeps its last value, as the mock reads one (a
 * push body may have duplicates, and the mock records them).
 *
 * <p>Writing takes the same kinds of values, plus any {@link Collection}, array of objects, {@link Number} and
 * {@link Map} with string keys; a non-finite double, a lone surrogate or any other type is refused.
 */
public final class Json {
    /** The deepest nesting of arrays and objects {@link #parse(String)} accepts (the mock's limit too). */
    public static final int MAXIMUM_DEPTH = 512;

    private Json() {}

    /** Why a text is not JSON: the message names the problem and its character offset. */
    public static final class ParseException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        private final int offset;

        ParseException(String problem, int offset) {
            super(problem + " at offset " + offset);
            this.offset = offset;
        }

        /** Where the problem is, in characters from the start of the text (in bytes for invalid UTF-8). */
        public int offset() {
            return offset;
        }
    }

    /** Parses one JSON text (see the class comment for what it gives and refuses). */
    public static Object parse(String text) {
        Reader reader = new Reader(text);
        reader.skipWhitespace();
        Object value = reader.value(0);
        reader.skipWhitespace();
        if (reader.index != text.length()) {
            throw new ParseException("unexpected " + reader.describeHere() + " after the JSON value", reader.index);
        }
        return value;
    }

    /** Parses UTF-8 bytes as one JSON text; bytes that are not valid UTF-8 are refused, not replaced. */
    public static Object parse(byte[] utf8) {
        String text = decodeUtf8(utf8);
        return parse(text);
    }

    /** Parses a JSON text that must be an object, e.g. a control API answer; {@code what} names it in the error. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> parseObject(String text, String what) {
        Object value = parse(text);
        if (!(value instanceof Map)) {
            throw new ParseException(what + " is " + kind(value) + ", not a JSON object", 0);
        }
        return (Map<String, Object>) value;
    }

    /** Compact JSON text of {@code value}: no spaces, object members in the map's order, non-ASCII left as is. */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out, 0);
        return out.toString();
    }

    /** A short name of a parsed value's JSON kind, for error messages: "an object", "a string", "null", ... */
    static String kind(Object value) {
        if (value == null) return "null";
        if (value instanceof Map) return "an object";
        if (value instanceof List) return "an array";
        if (value instanceof String) return "a string";
        if (value instanceof Boolean) return "a boolean";
        if (value instanceof Number) return "a number";
        return value.getClass().getName();
    }

    private static void write(Object value, StringBuilder out, int depth) {
        if (depth > MAXIMUM_DEPTH) {
            throw new IllegalArgumentException("Json.write: nested deeper than " + MAXIMUM_DEPTH
                    + " levels (is a collection inside itself?)");
        }
        if (value == null) {
            out.append("null");
        } else if (value instanceof String) {
            writeString((String) value, out);
        } else if (value instanceof Boolean) {
            out.append(value);
        } else if (value instanceof Long || value instanceof Integer || value instanceof Short
                || value instanceof Byte || value instanceof BigInteger) {
            out.append(value);
        } else if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw new IllegalArgumentException("Json.write: " + d + " has no JSON form (numbers must be finite)");
            }
            // Double.toString keeps a double a double (2.0, 1.0E20), so it reads back as one, as the mock writes it.
            out.append(value instanceof Float ? Float.toString((Float) value) : Double.toString(d));
        } else if (value instanceof BigDecimal) {
            out.append(((BigDecimal) value).toString());
        } else if (value instanceof Map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> member : ((Map<?, ?>) value).entrySet()) {
                if (!(member.getKey() instanceof String)) {
                    throw new IllegalArgumentException("Json.write: object keys must be strings, not "
                            + (member.getKey() == null ? "null" : member.getKey().getClass().getName()));
                }
                if (!first) out.append(',');
                first = false;
                writeString((String) member.getKey(), out);
                out.append(':');
                write(member.getValue(), out, depth + 1);
            }
            out.append('}');
        } else if (value instanceof Collection || value instanceof Object[]) {
            Collection<?> elements = value instanceof Collection ? (Collection<?>) value : List.of((Object[]) value);
            out.append('[');
            boolean first = true;
            for (Object element : elements) {
                if (!first) out.append(',');
                first = false;
                write(element, out, depth + 1);
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException("Json.write: " + value.getClass().getName()
                    + " has no JSON form; use a Map, List, String, Number, Boolean or null");
        }
    }

    private static void writeString(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                case '\b': out.append("\\b"); break;
                case '\f': out.append("\\f"); break;
                default:
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
                            && Character.isLowSurrogate(s.charAt(i + 1))) {
                        out.append(c).append(s.charAt(++i));
                    } else if (Character.isSurrogate(c)) {
                        throw new IllegalArgumentException(String.format(
                                "Json.write: the string has a lone surrogate U+%04X at index %d, which UTF-8 cannot carry",
                                (int) c, i));
                    } else {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }

    private static String decodeUtf8(byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (result.isError()) {
            throw new ParseException("invalid UTF-8", in.position());
        }
        decoder.flush(out);
        return out.flip().toString();
    }

    /** A cursor over the text; every method leaves {@code index} just after what it read. */
    private static final class Reader {
        private final String text;
        int index;

        Reader(String text) {
            this.text = text;
        }

        void skipWhitespace() {
            while (index < text.length()) {
                char c = text.charAt(index);
                if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
                index++;
            }
        }

        String describeHere() {
            if (index >= text.length()) return "end of text";
            char c = text.charAt(index);
            if (c < 0x20 || c == 0x7f) return String.format("character U+%04X", (int) c);
            if (c == '\uFEFF') return "byte order mark";
            return "'" + c + "'";
        }

        Object value(int depth) {
            if (index >= text.length()) throw new ParseException("expected a JSON value, found end of text", index);
            char c = text.charAt(index);
            switch (c) {
                case '{': return object(depth + 1);
                case '[': return array(depth + 1);
                case '"': return string();
                case 't': literal("true"); return Boolean.TRUE;
                case 'f': literal("false"); return Boolean.FALSE;
                case 'n': literal("null"); return null;
                default:
                    if (c == '-' || (c >= '0' && c <= '9')) return number();
                    throw new ParseException("expected a JSON value, found " + describeHere(), index);
            }
        }

        private void literal(String word) {
            if (!text.startsWith(word, index)) {
                throw new ParseException("expected " + word + ", found " + describeHere(), index);
            }
            index += word.length();
        }

        private void enter(int depth) {
            if (depth > MAXIMUM_DEPTH) {
                throw new ParseException("nested deeper than " + MAXIMUM_DEPTH + " levels", index);
            }
        }

        private Map<String, Object> object(int depth) {
            enter(depth);
            index++; // {
            Map<String, Object> members = new LinkedHashMap<>();
            skipWhitespace();
            if (index < text.length() && text.charAt(index) == '}') {
                index++;
                return members;
            }
            while (true) {
                skipWhitespace();
                if (index >= text.length() || text.charAt(index) != '"') {
                    throw new ParseException("expected a member name in double quotes, found " + describeHere(), index);
                }
                String key = string();
                skipWhitespace();
                if (index >= text.length() || text.charAt(index) != ':') {
                    throw new ParseException("expected ':' after the member name, found " + describeHere(), index);
                }
                index++;
                skipWhitespace();
                Object value = value(depth);
                members.remove(key); // a duplicate key takes the last value and its place
                members.put(key, value);
                skipWhitespace();
                if (index < text.length() && text.charAt(index) == ',') {
                    index++;
                    continue;
                }
                if (index < text.length() && text.charAt(index) == '}') {
                    index++;
                    return members;
                }
                throw new ParseException("expected ',' or '}' in an object, found " + describeHere(), index);
            }
        }

        private List<Object> array(int depth) {
            enter(depth);
            index++; // [
            List<Object> elements = new ArrayList<>();
            skipWhitespace();
            if (index < text.length() && text.charAt(index) == ']') {
                index++;
                return elements;
            }
            while (true) {
                skipWhitespace();
                elements.add(value(depth));
                skipWhitespace();
                if (index < text.length() && text.charAt(index) == ',') {
                    index++;
                    continue;
                }
                if (index < text.length() && text.charAt(index) == ']') {
                    index++;
                    return elements;
                }
                throw new ParseException("expected ',' or ']' in an array, found " + describeHere(), index);
            }
        }

        private String string() {
            int start = index;
            index++; // "
            StringBuilder out = new StringBuilder();
            while (true) {
                if (index >= text.length()) throw new ParseException("unterminated string", start);
                char c = text.charAt(index);
                if (c == '"') {
                    index++;
                    return out.toString();
                }
                if (c < 0x20) {
                    throw new ParseException(String.format("unescaped control character U+%04X in a string", (int) c),
                            index);
                }
                if (Character.isHighSurrogate(c) && index + 1 < text.length()
                        && Character.isLowSurrogate(text.charAt(index + 1))) {
                    out.append(c).append(text.charAt(index + 1));
                    index += 2;
                    continue;
                }
                if (Character.isSurrogate(c)) {
                    throw new ParseException(String.format("lone surrogate U+%04X in a string", (int) c), index);
                }
                if (c != '\\') {
                    out.append(c);
                    index++;
                    continue;
                }
                int escape = index;
                index++;
                if (index >= text.length()) throw new ParseException("unterminated string", start);
                char e = text.charAt(index++);
                switch (e) {
                    case '"': out.append('"'); break;
                    case '\\': out.append('\\'); break;
                    case '/': out.append('/'); break;
                    case 'b': out.append('\b'); break;
                    case 'f': out.append('\f'); break;
                    case 'n': out.append('\n'); break;
                    case 'r': out.append('\r'); break;
                    case 't': out.append('\t'); break;
                    case 'u': {
                        char unit = hex4(escape);
                        if (Character.isHighSurrogate(unit)) {
                            if (!text.startsWith("\\u", index)) {
                                throw new ParseException(String.format(
                                        "\\u%04X is a high surrogate without a low surrogate after it", (int) unit),
                                        escape);
                            }
                            int second = index;
                            index += 2;
                            char low = hex4(second);
                            if (!Character.isLowSurrogate(low)) {
                                throw new ParseException(String.format(
                                        "\\u%04X is a high surrogate followed by \\u%04X, not a low surrogate",
                                        (int) unit, (int) low), escape);
                            }
                            out.append(unit).append(low);
                        } else if (Character.isLowSurrogate(unit)) {
                            throw new ParseException(String.format(
                                    "\\u%04X is a low surrogate without a high surrogate before it", (int) unit), escape);
                        } else {
                            out.append(unit);
                        }
                        break;
                    }
                    default:
                        index--;
                        throw new ParseException("invalid escape \\" + describeHere().replace("'", ""), escape);
                }
            }
        }

        /** The four hex digits after a \\u whose backslash is at {@code escape}; index is just after the 'u'. */
        private char hex4(int escape) {
            if (index + 4 > text.length()) throw new ParseException("\\u needs four hex digits", escape);
            int unit = 0;
            for (int i = 0; i < 4; i++) {
                int digit = Character.digit(text.charAt(index + i), 16);
                if (digit < 0 || text.charAt(index + i) > 'f') {
                    throw new ParseException("\\u needs four hex digits", escape);
                }
                unit = unit * 16 + digit;
            }
            index += 4;
            return (char) unit;
        }

        private Object number() {
            int start = index;
            if (text.charAt(index) == '-') index++;
            if (index >= text.length() || !isDigit(text.charAt(index))) {
                throw new ParseException("a number needs a digit after '-'", start);
            }
            if (text.charAt(index) == '0') {
                index++;
                if (index < text.length() && isDigit(text.charAt(index))) {
                    throw new ParseException("a number may not have a leading zero", start);
                }
            } else {
                while (index < text.length() && isDigit(text.charAt(index))) index++;
            }
            boolean integer = true;
            if (index < text.length() && text.charAt(index) == '.') {
                integer = false;
                index++;
                if (index >= text.length() || !isDigit(text.charAt(index))) {
                    throw new ParseException("a number needs a digit after '.'", start);
                }
                while (index < text.length() && isDigit(text.charAt(index))) index++;
            }
            if (index < text.length() && (text.charAt(index) == 'e' || text.charAt(index) == 'E')) {
                integer = false;
                index++;
                if (index < text.length() && (text.charAt(index) == '+' || text.charAt(index) == '-')) index++;
                if (index >= text.length() || !isDigit(text.charAt(index))) {
                    throw new ParseException("a number needs a digit in its exponent", start);
                }
                while (index < text.length() && isDigit(text.charAt(index))) index++;
            }
            String literal = text.substring(start, index);
            if (integer) {
                try {
                    return Long.parseLong(literal);
                } catch (NumberFormatException tooBig) {
                    // beyond 64 bits: a double, as the mock reads it
                }
            }
            double d = Double.parseDouble(literal);
            if (Double.isInfinite(d)) {
                throw new ParseException("the number " + abbreviate(literal) + " is too large for a double", start);
            }
            return d;
        }

        private static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }

        private static String abbreviate(String s) {
            return s.length() <= 24 ? s : s.substring(0, 20) + "...";
        }
    }

}
