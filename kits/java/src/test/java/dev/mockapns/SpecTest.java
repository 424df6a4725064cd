package dev.mockapns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit against kits/spec (its README says what each file is): the arguments it starts the mock with in both modes
 * (launch.json), the ready file, provider tokens from the mock's own binary, the expectation cases run through
 * {@link MockAPNs#expect(Filter)} (expectations/*.json), and every control-API request it sends (FCM's too) checked
 * against the server's openapi.json.
 */
class SpecTest {
    private static Path repo() {
        return TestSupport.repositoryCerts().getParent();
    }

    private static Path spec(String name) {
        return repo().resolve("kits").resolve("spec").resolve(name);
    }

    private static Map<String, Object> load(Path file) {
        try {
            return Json.parseObject(Files.readString(file), file.toString());
        } catch (IOException e) {
            throw new AssertionError("cannot read " + file, e);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T at(Object node, String... keys) {
        Object value = node;
        for (String key : keys) value = ((Map<?, ?>) value).get(key);
        return (T) value;
    }

    private static final Map<String, Object> LAUNCH = load(spec("launch.json"));

    /** launch.json's arguments with {placeholder}s filled in; a placeholder left over fails. */
    private static List<String> substitute(List<?> arguments, Map<String, String> values) {
        List<String> out = new ArrayList<>();
        for (Object argument : arguments) {
            String text = (String) argument;
            for (Map.Entry<String, String> value : values.entrySet()) text = text.replace("{" + value.getKey() + "}", value.getValue());
            assertTrue(!text.contains("{"), "launch.json placeholder left in " + text);
            out.add(text);
        }
        return out;
    }

    /** The builder's options for a case's {"apple_hosts", "fcm"}. */
    private static MockAPNs.Builder options(MockAPNs.Builder builder, Map<?, ?> options) {
        options.forEach((name, on) -> {
            if (!Boolean.TRUE.equals(on)) return;
            if (name.equals("apple_hosts")) builder.appleHosts();
            else if (name.equals("fcm")) builder.fcm();
            else fail("launch.json option " + name + " is not one the Java kit has");
        });
        return builder;
    }

    /**
     * A shell script that, when its first argument is {@code first} (any call when it is ""), appends a
     * {@code --call--} line and its arguments (one a line) to NAME.args and writes MOCKAPNS_CONTROL_TOKEN and
     * XDG_DATA_HOME to NAME.env; then runs {@code script}.
     */
    private static Path recording(Path dir, String name, String first, String script) throws IOException {
        Path file = dir.resolve(name);
        String condition = first.isEmpty() ? "true" : "[ \"$1\" = " + first + " ]";
        return TestSupport.script(dir, name, "if " + condition + "; then printf '%s\\n' --call-- \"$@\" >> '" + file
                + ".args'; printf '%s\\n' \"${MOCKAPNS_CONTROL_TOKEN:-}\" \"${XDG_DATA_HOME:-}\" > '" + file + ".env'; fi\n"
                + script);
    }

    private static List<List<String>> calls(Path file) throws IOException {
        Path args = Path.of(file + ".args");
        List<List<String>> calls = new ArrayList<>();
        if (!Files.exists(args)) return calls;
        for (String line : Files.readAllLines(args)) {
            if (line.equals("--call--")) calls.add(new ArrayList<>());
            else calls.get(calls.size() - 1).add(line);
        }
        return calls;
    }

    private static List<String> recordedEnv(Path file) throws IOException {
        return List.of((Files.readString(Path.of(file + ".env")) + "\n\n").split("\n", -1));
    }

    @TestFactory
    Stream<DynamicTest> binaryModeRunsLaunchJsonArguments(@TempDir Path dir) {
        List<Map<?, ?>> cases = at(LAUNCH, "binary", "cases");
        assertTrue(cases.size() >= 4, "launch.json has " + cases.size() + " binary cases");
        return cases.stream().map(c -> DynamicTest.dynamicTest(Json.write(c.get("options")), () -> {
            Path folder = Files.createTempDirectory(dir, "case");
            Path binary = recording(folder, "mockapns", "", "exit 3");
            Map<String, String> env = new HashMap<>(System.getenv());
            env.put("MOCKAPNS_CONTROL_TOKEN", "another-mocks-token"); // must not reach this mock
            MockAPNsException error = assertThrows(MockAPNsException.class, () -> options(MockAPNs.builder()
                    .environment(env).binary(binary).args("--log-level", "debug"), (Map<?, ?>) c.get("options")).start());
            assertTrue(error.getMessage().contains("exited with code 3 before it was ready"), error.getMessage());
            List<List<String>> calls = calls(binary);
            assertEquals(1, calls.size(), "the binary was run " + calls.size() + " times");
            List<String> args = calls.get(0);
            String workdir = Path.of(args.get(args.indexOf("--ready-file") + 1)).getParent().toString();
            List<String> want = substitute((List<?>) c.get("arguments"), Map.of("ready_file", workdir + "/ready.json",
                    "workdir", workdir));
            want.addAll(List.of("--log-level", "debug"));
            assertEquals(want, args);
            List<String> childEnv = recordedEnv(binary);
            assertEquals("", childEnv.get(0), "MOCKAPNS_CONTROL_TOKEN is removed from the server's environment");
            assertEquals(Boolean.TRUE.equals(((Map<?, ?>) c.get("options")).get("fcm")) ? workdir + "/data"
                    : System.getenv().getOrDefault("XDG_DATA_HOME", ""), childEnv.get(1));
        }));
    }

    @TestFactory
    Stream<DynamicTest> containerModeRunsLaunchJsonArguments(@TempDir Path dir) {
        List<Map<?, ?>> cases = at(LAUNCH, "container", "cases");
        assertTrue(cases.size() >= 4, "launch.json has " + cases.size() + " container cases");
        return cases.stream().map(c -> DynamicTest.dynamicTest(Json.write(c.get("options")), () -> {
            Path folder = Files.createTempDirectory(dir, "case");
            Path engine = recording(folder, "engine", "run",
                    "[ \"$1\" = run ] && { echo 'no engine here' >&2; exit 1; }; exit 0");
            MockAPNsException error = assertThrows(MockAPNsException.class, () -> options(MockAPNs.builder()
                    .image("mockapns:spec").engine(engine.toString()).args("--log-level", "debug"),
                    (Map<?, ?>) c.get("options")).start());
            assertTrue(error.getMessage().contains("no engine here"), error.getMessage());
            List<List<String>> calls = calls(engine);
            assertEquals(1, calls.size(), "the engine ran " + calls.size() + " containers");
            List<String> args = calls.get(0);
            String name = args.get(args.indexOf("--name") + 1);
            assertTrue(name.matches("mockapns-java-[0-9a-f]{12}"), name);
            List<String> want = substitute((List<?>) c.get("arguments"), Map.of("name", name, "kit", "java",
                    "pid", String.valueOf(ProcessHandle.current().pid()), "image", "mockapns:spec"));
            want.addAll(List.of("--log-level", "debug"));
            assertEquals(want, args);
            String token = recordedEnv(engine).get(0);
            assertTrue(token.matches("[0-9a-f]{32}"), "a control token of the kit's, in the engine's environment: " + token);
            assertTrue(!String.join(" ", args).contains(token), "the control token is on no command line");
        }));
    }

    @Test
    void theReadyFileHasLaunchJsonFieldsAndTheKitReadsThem() {
        List<String> always = at(LAUNCH, "ready_file", "always");
        Map<String, Object> fields = at(LAUNCH, "ready_file", "fields");
        try (MockAPNs mock = TestSupport.start(MockAPNs.builder().appleHosts().fcm())) {
            Map<String, Object> ready = Json.parseObject(mock.readyFile(), "the ready file");
            // The fields every listener the kit turns on writes; the rest depend on flags the kit does not choose.
            List<String> wanted = new ArrayList<>(always);
            wanted.addAll(List.of("control_url", "http1_url", "ca_file", "apple_ports", "fcm_url", "fcm_ports",
                    "fcm_service_account", "fcm_ca_file"));
            for (String name : wanted) assertTrue(ready.containsKey(name), "the ready file has no " + name + ": " + ready);
            for (String name : ready.keySet()) assertTrue(fields.containsKey(name), "launch.json does not list " + name);
            if (!TestSupport.containerMode()) {
                assertEquals(List.of(ready.get("apns_url"), ready.get("http1_url"), ready.get("control_url"),
                        ready.get("fcm_url")), List.of(mock.url(), mock.http1Url(), mock.controlUrl(), mock.fcmUrl()));
                Map<Integer, Integer> apple = new LinkedHashMap<>();
                ((Map<?, ?>) ready.get("apple_ports")).forEach((k, v) -> apple.put(Integer.valueOf((String) k), ((Long) v).intValue()));
                assertEquals(apple, mock.applePorts());
            }
            assertEquals(Set.of(443, 2197, 2195, 2196), mock.applePorts().keySet());
        }
    }

    @Test
    void providerTokensComeFromTheMocksOwnBinaryReusedForLaunchJsonTime(@TempDir Path dir) throws Exception {
        long reuse = ((Long) at(LAUNCH, "provider_token", "reuse_seconds"));
        assertEquals(Duration.ofSeconds(reuse), ProviderToken.REUSE);
        boolean container = TestSupport.containerMode();
        ProviderTokenTest.MutableClock clock = new ProviderTokenTest.MutableClock(Instant.parse("2030-01-01T12:00:00Z"));
        MockAPNs.Builder builder = MockAPNs.builder().clock(clock);
        Path wrapper;
        if (container) {
            Path engine = ContainerBackend.findEngine(null, System.getenv());
            wrapper = recording(dir, engine.getFileName().toString(), "exec", "exec '" + engine + "' \"$@\"");
            builder.engine(wrapper.toString());
        } else {
            Path binary = ProcessBackend.find(null, System.getenv());
            wrapper = recording(dir, "mockapns", "token", "exec '" + binary + "' \"$@\"");
            builder.binary(wrapper);
        }
        try (MockAPNs mock = TestSupport.start(builder)) {
            String first = mock.token();
            clock.now = clock.now.plus(ProviderToken.REUSE).minusSeconds(1);
            assertEquals(first, mock.token(), "reused until launch.json's time is over");
            clock.now = clock.now.plusSeconds(1);
            String third = mock.token();
            assertEquals(3, third.split("\\.").length, third);
            List<String> want = container
                    ? substitute(at(LAUNCH, "provider_token", "container"), Map.of("name", mock.containerName().orElseThrow()))
                    : substitute(at(LAUNCH, "provider_token", "binary"), Map.of("team_id", mock.teamId(),
                            "key_id", mock.keyId(), "key_file", mock.keyFile().toString()));
            List<List<String>> minted = calls(wrapper).stream()
                    .filter(call -> !container || (call.size() > 2 && call.get(2).equals("mockapns")))
                    .collect(Collectors.toList());
            assertEquals(List.of(want, want), minted, "minted once at first, and again once the reuse time is over");
        }
    }

    // Expectation cases

    private static final Pattern CLOCK_TIME = Pattern.compile("\\b\\d{2}:\\d{2}:\\d{2}\\.\\d{3}\\b");

    /** A failure's lines from the mock's own first line ({@code expect: ...}) on, each clock time as {time}. */
    private static List<String> serverLines(String failure) {
        List<String> lines = List.of(failure.split("\n", -1));
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("expect: ")) {
                return lines.subList(i, lines.size()).stream().map(line -> CLOCK_TIME.matcher(line).replaceAll("{time}"))
                        .collect(Collectors.toList());
            }
        }
        throw new AssertionError("the failure does not carry the mock's message (no line starts with 'expect: '):\n" + failure);
    }

    /** Asks the kit what the case's {@code expect} says: expect(), or waitFor() for at_least. */
    private static List<Notification> ask(MockAPNs mock, Map<String, Object> wanted) {
        Filter filter = new Filter();
        Integer atLeast = null;
        for (Map.Entry<String, Object> entry : wanted.entrySet()) {
            Object value = entry.getValue();
            switch (entry.getKey()) {
                case "token": filter.token((String) value); break;
                case "topic": filter.topic((String) value); break;
                case "push_type": filter.pushType((String) value); break;
                case "status": filter.status(((Long) value).intValue()); break;
                case "reason": filter.reason((String) value); break;
                case "where": filter.where(((List<?>) value).toArray(new String[0])); break;
                case "count": filter.count(((Long) value).intValue()); break;
                case "none": if (Boolean.TRUE.equals(value)) filter.count(0); break;
                case "at_least": atLeast = ((Long) value).intValue(); break;
                default: throw new AssertionError("the Java kit's Filter cannot express \"" + entry.getKey()
                        + "\" of the case's expect");
            }
        }
        return atLeast == null ? mock.expect(filter) : mock.waitFor(filter.count(atLeast), Duration.ZERO);
    }

    @TestFactory
    Stream<DynamicTest> expectationCases() throws IOException {
        List<Path> files;
        try (Stream<Path> listed = Files.list(spec("expectations"))) {
            files = listed.filter(p -> p.toString().endsWith(".json")).sorted().collect(Collectors.toList());
        }
        assertTrue(files.size() >= 4, "kits/spec/expectations holds " + files.size() + " cases");
        MockAPNs mock = TestSupport.start();
        HttpClient client = TestSupport.http2(mock);
        Stream<DynamicTest> tests = files.stream().map(file -> DynamicTest.dynamicTest(
                file.getFileName().toString().replace(".json", ""), () -> {
            Map<String, Object> c = load(file);
            mock.clear();
            Map<String, Object> devices = c.get("devices") == null ? Map.of() : at(c, "devices");
            devices.forEach((token, state) -> mock.setDevice(token, (String) state));
            List<Map<String, Object>> pushes = at(c, "pushes");
            for (Map<String, Object> push : pushes) {
                HttpRequest request = HttpRequest.newBuilder(URI.create(mock.url() + "/3/device/" + push.get("token")))
                        .header("authorization", "bearer " + mock.token())
                        .header("apns-topic", (String) push.getOrDefault("topic", "com.example.app"))
                        .header("apns-push-type", (String) push.getOrDefault("push_type", "alert"))
                        .POST(HttpRequest.BodyPublishers.ofString(Json.write(push.get("payload")))).build();
                client.send(request, HttpResponse.BodyHandlers.discarding());
            }
            List<Long> seqs = mock.notifications().stream().map(Notification::seq).collect(Collectors.toList());
            assertEquals(pushes.size(), seqs.size(), "the mock recorded " + seqs.size() + " of the case's pushes");
            List<Notification> returned = null;
            AssertionError missed = null;
            try {
                returned = ask(mock, at(c, "expect"));
            } catch (AssertionError e) {
                missed = e;
            }
            List<Notification> got = returned;
            AssertionError failure = missed;
            if (Boolean.TRUE.equals(c.get("met"))) {
                assertNull(failure, () -> "the case is met, but expect failed:\n" + failure.getMessage());
                List<Long> matched = ((List<?>) c.get("matched")).stream().map(n -> seqs.get(((Long) n).intValue() - 1))
                        .collect(Collectors.toList());
                assertEquals(matched, got.stream().map(Notification::seq).collect(Collectors.toList()));
                return;
            }
            assertNotNull(failure, "the case is not met, but expect returned " + got);
            List<String> want = new ArrayList<>();
            for (Object line : (List<?>) c.get("message")) {
                Matcher ref = Pattern.compile("#p(\\d+)\\b").matcher((String) line);
                StringBuilder text = new StringBuilder();
                while (ref.find()) ref.appendReplacement(text, "#" + seqs.get(Integer.parseInt(ref.group(1)) - 1));
                ref.appendTail(text);
                want.add(text.toString());
            }
            assertEquals(want, serverLines(failure.getMessage()));
        }));
        return tests.onClose(mock::close);
    }

    // openapi.json

    /** The control API's document, and the check of one request the kit sent against it. */
    static final class OpenApi {
        final Map<String, Object> doc = load(repo().resolve("Sources/MockAPNsControl/OpenAPI/openapi.json"));
        final Map<String, Object> gaps = load(spec("openapi-gaps.json"));

        private Object resolve(Object node) {
            while (node instanceof Map && ((Map<?, ?>) node).get("$ref") instanceof String) {
                Object target = doc;
                for (String part : ((String) ((Map<?, ?>) node).get("$ref")).replaceFirst("^#/", "").split("/")) {
                    target = ((Map<?, ?>) target).get(part);
                }
                node = target;
            }
            return node;
        }

        private String template(String path) {
            Map<String, Object> paths = at(doc, "paths");
            if (paths.containsKey(path)) return path;
            for (String template : new TreeSet<>(paths.keySet())) {
                String regex = Pattern.quote(template).replaceAll("\\{[^/]+?\\}", "\\\\E[^/]+\\\\Q");
                if (path.matches(regex)) return template;
            }
            return null;
        }

        /** What in {@code method pathAndQuery} with JSON {@code body} openapi.json does not declare. */
        List<String> problems(String method, String pathAndQuery, Object body) {
            String[] parts = pathAndQuery.split("\\?", 2);
            String path = URLDecoder.decode(parts[0], StandardCharsets.UTF_8);
            String template = template(path);
            if (template == null) return List.of(path + " is no path of openapi.json");
            Map<String, Object> item = at(doc, "paths", template);
            Map<String, Object> operation = at(item, method.toLowerCase());
            if (operation == null) return List.of(method + " " + path + ": openapi.json's " + template + " has no " + method);
            String key = method + " " + template;
            Map<String, Object> allowed = gaps.get(key) instanceof Map ? at(gaps, key) : Map.of();
            Set<String> declared = new LinkedHashSet<>();
            for (Object list : new Object[] {item.get("parameters"), operation.get("parameters")}) {
                if (!(list instanceof List)) continue;
                for (Object parameter : (List<?>) list) {
                    Map<?, ?> resolved = (Map<?, ?>) resolve(parameter);
                    if ("query".equals(resolved.get("in"))) declared.add((String) resolved.get("name"));
                }
            }
            if (allowed.get("query") instanceof List) for (Object name : (List<?>) allowed.get("query")) declared.add((String) name);
            List<String> problems = new ArrayList<>();
            Set<String> names = new LinkedHashSet<>();
            if (parts.length == 2 && !parts[1].isEmpty()) {
                for (String pair : parts[1].split("&")) names.add(URLDecoder.decode(pair.split("=", 2)[0], StandardCharsets.UTF_8));
            }
            for (String name : names) {
                if (!declared.contains(name)) problems.add(key + ": query parameter \"" + name + "\" is not declared");
            }
            if (body == null) return problems;
            Object schema = resolve(at(resolve(operation.get("requestBody")), "content", "application/json", "schema"));
            if (schema == null) {
                problems.add(key + ": sends a JSON body, but openapi.json declares none");
            } else if (((Map<?, ?>) schema).get("properties") instanceof Map && body instanceof Map) {
                Set<Object> known = new LinkedHashSet<>(((Map<?, ?>) ((Map<?, ?>) schema).get("properties")).keySet());
                if (allowed.get("body") instanceof List) known.addAll((List<?>) allowed.get("body"));
                for (Object name : ((Map<?, ?>) body).keySet()) {
                    if (!known.contains(name)) problems.add(key + ": body key \"" + name + "\" is not declared");
                }
            }
            return problems;
        }
    }

    @Test
    void everyControlRequestTheKitSendsIsDeclaredInOpenApi() throws Exception {
        List<Object[]> sent = new ArrayList<>();
        Set<String> called = new TreeSet<>();
        ControlClient.observer = (method, path, body) -> {
            synchronized (sent) {
                sent.add(new Object[] {method, path, body});
            }
        };
        try (MockAPNs mock = TestSupport.start(MockAPNs.builder().fcm())) {
            HttpClient client = TestSupport.http2(mock);
            String phone = TestSupport.PHONE;
            String other = "cd".repeat(32);
            Instant at = Instant.parse("2024-05-01T12:00:00Z");
            TestSupport.push(client, mock, phone, TestSupport.TOPIC, "Shipped");
            called.add("notifications");
            mock.notifications();
            mock.notifications(new Filter().token(phone).topic(TestSupport.TOPIC).pushType("alert").status(200)
                    .reason("Unregistered").since(0));
            called.add("expect");
            quietly(() -> mock.expect(new Filter().token(phone).topic(TestSupport.TOPIC).pushType("alert").status(200)
                    .reason("X").since(0).where("aps.alert.title=Shipped").where("aps.badge", 1).count(2)));
            mock.expect(new Filter().topic("com.example.none").count(0));
            called.add("waitFor");
            quietly(() -> mock.waitFor(new Filter().where("aps.alert.title", "Shipped").count(2), Duration.ZERO));
            called.add("setDevice");
            mock.setDevice(other, DeviceState.unregistered());
            mock.setDevice(other, DeviceState.unregisteredSince(at));
            mock.setDevice(other, DeviceState.expired());
            mock.setDevice(other, DeviceState.onlyTopics(TestSupport.TOPIC));
            mock.setDevice(other, DeviceState.otherEnvironment());
            mock.setDevice(other, DeviceState.rateLimited(5, Duration.ofMinutes(1)));
            mock.setDevice(other, "expired");
            mock.setDevice(phone, DeviceState.of(Map.of("online", false, "app_state", "background",
                    "settings", Map.of("background_budget_per_hour", 2), "push_to_start_tokens", List.of(other),
                    "at", at.toEpochMilli())));
            called.add("forgetDevice");
            mock.forgetDevice(other);
            called.add("device");
            mock.device(phone);
            called.add("addFault");
            String fault = mock.addFault(Fault.respond(503, "ServiceUnavailable").token(phone).topic(TestSupport.TOPIC)
                    .pushType("alert").pathPrefix("/3/device/").count(1).name("down").probability(1.0));
            mock.addFault(Fault.respond(500));
            mock.addFault(Fault.delay(Duration.ofMillis(1)));
            mock.addFault(Fault.stall());
            mock.addFault(Fault.drop());
            mock.addFault(Fault.goAway("ServiceUnavailable"));
            called.add("removeFault");
            mock.removeFault(fault);
            called.add("newFcmServiceAccount");
            mock.newFcmServiceAccount("other-project");
            called.add("registerFcm");
            FcmRegistration ios = mock.registerFcm("ios", TestSupport.TOPIC, MockAPNs.FCM_PROJECT, "ef".repeat(32));
            mock.registerFcm("android", TestSupport.TOPIC);
            mock.registerFcm(TestSupport.TOPIC);
            called.add("fcmMessages");
            mock.fcmMessages();
            mock.fcmMessages(new FcmFilter().project(MockAPNs.FCM_PROJECT).name("x").token(ios.token()).topic("news")
                    .status(200).limit(3));
            called.add("expectFcm");
            quietly(() -> mock.expectFcm(new FcmFilter().project(MockAPNs.FCM_PROJECT).name("x").token(ios.token())
                    .topic("news").condition("'news' in topics").status(200).validateOnly(false).count(2)));
            mock.expectFcm(new FcmFilter().token(ios.token()).count(0));
            quietly(() -> mock.expectFcm(new FcmFilter().validateOnly(true)));
            called.add("waitForFcm");
            quietly(() -> mock.waitForFcm(new FcmFilter().topic("news").count(3), Duration.ZERO));
            called.add("apnsPushesOf");
            mock.apnsPushesOf(mock.fcmMessages().isEmpty() ? new FcmMessage(Map.of("apns_ids", List.of()))
                    : mock.fcmMessages().get(0));
            called.add("clear");
            mock.clear();
        } finally {
            ControlClient.observer = null;
        }
        // The public methods that send no control request.
        Set<String> local = Set.of("url", "host", "port", "controlUrl", "http1Url", "applePorts", "intercept",
                "sslContext", "caPem", "caFile", "keyFile", "keyId", "teamId", "token", "servesFcm", "fcmUrl",
                "fcmHttpsPort", "fcmServiceAccount", "fcmCaFile", "fcmSslContext", "isRunning", "stoppedReason",
                "process", "containerName", "close", "toString");
        Set<String> unexercised = new TreeSet<>();
        for (Method method : MockAPNs.class.getDeclaredMethods()) {
            int modifiers = method.getModifiers();
            if (Modifier.isPublic(modifiers) && !Modifier.isStatic(modifiers) && !called.contains(method.getName())
                    && !local.contains(method.getName())) {
                unexercised.add(method.getName());
            }
        }
        assertEquals(Set.of(), unexercised, "public methods this test neither calls nor lists as sending nothing");

        OpenApi openapi = new OpenApi();
        assertTrue(sent.size() >= 30, "only " + sent.size() + " control requests were recorded");
        List<String> problems = new ArrayList<>();
        Map<String, Set<String>> expectParameters = Map.of("/api/v1/expect", new TreeSet<>(), "/api/v1/fcm/expect",
                new TreeSet<>());
        for (Object[] request : sent) {
            problems.addAll(openapi.problems((String) request[0], (String) request[1], request[2]));
            String[] path = ((String) request[1]).split("\\?", 2);
            if (expectParameters.containsKey(path[0]) && path.length == 2) {
                for (String pair : path[1].split("&")) expectParameters.get(path[0]).add(pair.split("=")[0]);
            }
        }
        assertEquals(List.of(), problems);
        assertEquals(new TreeSet<>(List.of("at_least", "count", "push_type", "reason", "since", "status", "token", "topic",
                "where")), expectParameters.get("/api/v1/expect"), "every parameter the kit sends GET /api/v1/expect");
        assertEquals(new TreeSet<>(List.of("at_least", "condition", "count", "name", "none", "project", "status", "token",
                "topic", "validate_only")), expectParameters.get("/api/v1/fcm/expect"),
                "every parameter the kit sends GET /api/v1/fcm/expect");
    }

    private static void quietly(Runnable expectation) {
        try {
            expectation.run();
        } catch (AssertionError missed) {
            // a miss says so; its request was sent all the same
        }
    }

    @Test
    void theOpenApiCheckRefusesWhatOpenApiDoesNotDeclare() {
        OpenApi openapi = new OpenApi();
        assertEquals(List.of("GET /api/v1/expect: query parameter \"title\" is not declared"),
                openapi.problems("GET", "/api/v1/expect?token=x&where=a%3Db&title=y", null));
        assertEquals(List.of("PATCH /api/v1/faults: openapi.json's /api/v1/faults has no PATCH"),
                openapi.problems("PATCH", "/api/v1/faults", null));
        assertEquals(List.of("PUT /api/v1/devices/{token}: body key \"colour\" is not declared"),
                openapi.problems("PUT", "/api/v1/devices/abcd", Map.of("state", "expired", "colour", "red")));
        assertEquals(List.of("/api/v1/nowhere is no path of openapi.json"), openapi.problems("GET", "/api/v1/nowhere", null));
        assertEquals(List.of(), openapi.problems("POST", "/api/v1/devices/ab/changes", Map.of("change", "tap", "apns_id", "x")),
                "openapi-gaps.json's entry allows tap's apns_id");
        assertNotEquals(List.of(), openapi.problems("GET", "/api/v1/notifications?where=x", null));
    }
}
