package dev.mockapns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JsonTest {
    @Test
    void readsEveryKindOfValue() {
        Object value = Json.parse(" {\"s\":\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\", \"i\": -12, \"d\": 1.5e3,"
                + " \"t\": true, \"f\": false, \"n\": null, \"a\": [1, [], {}], \"o\": {\"k\": \"v\"}} \n");
        Map<?, ?> object = assertInstanceOf(Map.class, value);
        assertEquals(List.of("s", "i", "d", "t", "f", "n", "a", "o"), new ArrayList<>(object.keySet()), "wire order");
        assertEquals("a\"b\\c/d\b\f\n\r\té😀", object.get("s"));
        assertEquals(-12L, object.get("i"));
        assertEquals(1500.0, object.get("d"));
        assertEquals(true, object.get("t"));
        assertEquals(false, object.get("f"));
        assertTrue(object.containsKey("n"));
        assertNull(object.get("n"));
        assertEquals(List.of(1L, List.of(), Map.of()), object.get("a"));
        assertEquals(Map.of("k", "v"), object.get("o"));
    }

    @Test
    void numbersFollowTheMocksRules() {
        assertEquals(Long.MAX_VALUE, Json.parse("9223372036854775807"));
        assertEquals(Long.MIN_VALUE, Json.parse("-9223372036854775808"));
        assertEquals(9.223372036854775808e18, Json.parse("9223372036854775808"), "beyond 64 bits: a double");
        assertEquals(1.0, Json.parse("1.0"), "a fraction is a double even when whole");
        assertEquals(100.0, Json.parse("1E2"));
        assertEquals(0.25, Json.parse("25e-2"));
        assertEquals(-0.0, Json.parse("-0.0"));
        assertEquals(0L, Json.parse("-0"));
    }

    @Test
    void aDuplicateKeyKeepsItsLastValueAsTheMockReadsIt() {
        Map<?, ?> object = (Map<?, ?>) Json.parse("{\"a\":1,\"b\":2,\"a\":3}");
        assertEquals(3L, object.get("a"));
        assertEquals(List.of("b", "a"), new ArrayList<>(object.keySet()));
    }

    static Stream<Arguments> invalidTexts() {
        return Stream.of(
                Arguments.of("", "expected a JSON value, found end of text at offset 0"),
                Arguments.of("   ", "expected a JSON value, found end of text at offset 3"),
                Arguments.of("{\"a\":1,}", "expected a member name in double quotes, found '}' at offset 7"),
                Arguments.of("[1,]", "expected a JSON value, found ']' at offset 3"),
                Arguments.of("[1 2]", "expected ',' or ']' in an array, found '2' at offset 3"),
                Arguments.of("{\"a\" 1}", "expected ':' after the member name, found '1' at offset 5"),
                Arguments.of("{'a':1}", "expected a member name in double quotes, found ''' at offset 1"),
                Arguments.of("{a:1}", "expected a member name in double quotes, found 'a' at offset 1"),
                Arguments.of("01", "a number may not have a leading zero at offset 0"),
                Arguments.of("-", "a number needs a digit after '-' at offset 0"),
                Arguments.of("1.", "a number needs a digit after '.' at offset 0"),
                Arguments.of(".5", "expected a JSON value, found '.' at offset 0"),
                Arguments.of("1e", "a number needs a digit in its exponent at offset 0"),
                Arguments.of("+1", "expected a JSON value, found '+' at offset 0"),
                Arguments.of("1e400", "the number 1e400 is too large for a double at offset 0"),
                Arguments.of("NaN", "expected a JSON value, found 'N' at offset 0"),
                Arguments.of("Infinity", "expected a JSON value, found 'I' at offset 0"),
                Arguments.of("tru", "expected true, found 't' at offset 0"),
                Arguments.of("nul", "expected null, found 'n' at offset 0"),
                Arguments.of("True", "expected a JSON value, found 'T' at offset 0"),
                Arguments.of("\"abc", "unterminated string at offset 0"),
                Arguments.of("\"a\tb\"", "unescaped control character U+0009 in a string at offset 2"),
                Arguments.of("\"\\x\"", "invalid escape \\x at offset 1"),
                Arguments.of("\"\\u12\"", "\\u needs four hex digits at offset 1"),
                Arguments.of("\"\\u12G4\"", "\\u needs four hex digits at offset 1"),
                Arguments.of("\"\\ud83d\"", "\\uD83D is a high surrogate without a low surrogate after it at offset 1"),
                Arguments.of("\"\\ud83d\\u0041\"",
                        "\\uD83D is a high surrogate followed by \\u0041, not a low surrogate at offset 1"),
                Arguments.of("\"\\ude00\"", "\\uDE00 is a low surrogate without a high surrogate before it at offset 1"),
                Arguments.of("\"\ud83d\"", "lone surrogate U+D83D in a string at offset 1"),
                Arguments.of("{} {}", "unexpected '{' after the JSON value at offset 3"),
                Arguments.of("\uFEFF{}", "expected a JSON value, found byte order mark at offset 0"),
                Arguments.of("[1] // comment", "unexpected '/' after the JSON value at offset 4"),
                Arguments.of("[\u00a0]", "expected a JSON value, found '\u00a0' at offset 1"));
    }

    @ParameterizedTest
    @MethodSource("invalidTexts")
    void refusesWhatRfc8259Refuses(String text, String message) {
        Json.ParseException error = assertThrows(Json.ParseException.class, () -> Json.parse(text));
        assertEquals(message, error.getMessage());
    }

    @Test
    void refusesNestingDeeperThanTheLimitAndAcceptsTheLimit() {
        String deepest = "[".repeat(Json.MAXIMUM_DEPTH) + "]".repeat(Json.MAXIMUM_DEPTH);
        assertInstanceOf(List.class, Json.parse(deepest));
        String tooDeep = "[".repeat(Json.MAXIMUM_DEPTH + 1) + "]".repeat(Json.MAXIMUM_DEPTH + 1);
        Json.ParseException error = assertThrows(Json.ParseException.class, () -> Json.parse(tooDeep));
        assertEquals("nested deeper than 512 levels at offset 512", error.getMessage());
        // A hostile text far deeper than the stack allows still gets the same answer, not a StackOverflowError.
        assertThrows(Json.ParseException.class, () -> Json.parse("[".repeat(1_000_000)));
    }

    @Test
    void bytesMustBeValidUtf8() {
        assertEquals("é", Json.parse("\"é\"".getBytes(StandardCharsets.UTF_8)));
        byte[] invalid = {'[', '"', 'a', (byte) 0xC3, '"', ']'};
        Json.ParseException error = assertThrows(Json.ParseException.class, () -> Json.parse(invalid));
        assertEquals("invalid UTF-8 at offset 3", error.getMessage());
        assertEquals(3, error.offset());
        byte[] encodedSurrogate = {'"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"'};
        assertEquals("invalid UTF-8 at offset 1",
                assertThrows(Json.ParseException.class, () -> Json.parse(encodedSurrogate)).getMessage());
    }

    @Test
    void writesCompactJsonInMapOrder() {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("z", "quote \" backslash \\ newline \n tab \t bell \u0007 é 😀 \u2028");
        object.put("a", Arrays.asList(1, 2L, -3.5, 2.0, 1e20, null, true, false));
        object.put("big", new BigInteger("123456789012345678901234567890"));
        object.put("dec", new BigDecimal("0.1"));
        object.put("array", new Object[] {"x", Map.of()});
        assertEquals("{\"z\":\"quote \\\" backslash \\\\ newline \\n tab \\t bell \\u0007 é 😀 \u2028\","
                + "\"a\":[1,2,-3.5,2.0,1.0E20,null,true,false],\"big\":123456789012345678901234567890,\"dec\":0.1,"
                + "\"array\":[\"x\",{}]}", Json.write(object));
    }

    @Test
    void refusesValuesWithoutAJsonForm() {
        assertEquals("Json.write: NaN has no JSON form (numbers must be finite)",
                assertThrows(IllegalArgumentException.class, () -> Json.write(Double.NaN)).getMessage());
        assertEquals("Json.write: Infinity has no JSON form (numbers must be finite)",
                assertThrows(IllegalArgumentException.class, () -> Json.write(List.of(Double.POSITIVE_INFINITY)))
                        .getMessage());
        assertEquals("Json.write: the string has a lone surrogate U+D83D at index 1, which UTF-8 cannot carry",
                assertThrows(IllegalArgumentException.class, () -> Json.write("a\ud83d")).getMessage());
        assertEquals("Json.write: object keys must be strings, not java.lang.Integer",
                assertThrows(IllegalArgumentException.class, () -> Json.write(Map.of(1, 2))).getMessage());
        assertEquals("Json.write: java.lang.Thread has no JSON form; use a Map, List, String, Number, Boolean or null",
                assertThrows(IllegalArgumentException.class, () -> Json.write(new Thread())).getMessage());
        List<Object> cycle = new ArrayList<>();
        cycle.add(cycle);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Json.write(cycle)).getMessage()
                .startsWith("Json.write: nested deeper than 512 levels"));
    }

    @Test
    void whatItWritesItReadsBackUnchanged() {
        Random random = new Random(20240521);
        for (int i = 0; i < 2000; i++) {
            Object value = randomValue(random, 0);
            String text = Json.write(value);
            assertEquals(value, Json.parse(text), text);
            assertEquals(text, Json.write(Json.parse(text)));
        }
    }

    /** Values in the reader's own types (so they compare equal after a round trip). */
    private static Object randomValue(Random random, int depth) {
        switch (random.nextInt(depth > 4 ? 5 : 7)) {
            case 0: return null;
            case 1: return random.nextBoolean();
            case 2: return random.nextLong() >> random.nextInt(64);
            case 3: return (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(40) - 20);
            case 4: {
                StringBuilder s = new StringBuilder();
                int length = random.nextInt(8);
                for (int i = 0; i < length; i++) {
                    int kind = random.nextInt(4);
                    if (kind == 0) s.append((char) random.nextInt(0x20));
                    else if (kind == 1) s.append("\"\\/é");
                    else if (kind == 2) s.appendCodePoint(0x1F600 + random.nextInt(50));
                    else s.append((char) ('a' + random.nextInt(26)));
                }
                return s.toString();
            }
            case 5: {
                List<Object> list = new ArrayList<>();
                for (int i = random.nextInt(4); i > 0; i--) list.add(randomValue(random, depth + 1));
                return list;
            }
            default: {
                Map<String, Object> map = new LinkedHashMap<>();
                for (int i = random.nextInt(4); i > 0; i--) map.put("k" + random.nextInt(10), randomValue(random, depth + 1));
                return map;
            }
        }
    }
}
