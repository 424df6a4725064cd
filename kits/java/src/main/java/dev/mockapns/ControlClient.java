package dev.mockapns;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;

/**
 * JSON requests to the mock's control API (its OpenAPI document: {@code GET /api/v1/openapi.json}), with
 * {@code authorization: Bearer <token>} when the control plane needs one. A refusal is a MockAPNsException with the
 * mock's own sentence; a control plane that cannot be reached is explained by the backend (a server that died says
 * so, with its last output).
 */
final class ControlClient {
    /**
     * A client of the mock's own: a pool shared by every mock could hand a new mock a kept-alive connection to a
     * closed one that had the same port.
     */
    static HttpClient newHttpClient() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    /** Told of every control request the kit sends: the kit's OpenAPI test records them. */
    interface Observer {
        void sent(String method, String path, Object body);
    }

    /** The observer in force, if any (the kit's tests set it). */
    static volatile Observer observer;

    private final HttpClient http = newHttpClient();

    private final String baseUrl;
    private final String token;
    private final Supplier<String> death;
    private final Duration timeout;

    ControlClient(String baseUrl, String token, Supplier<String> death, Duration timeout) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.token = token;
        this.death = death;
        this.timeout = timeout;
    }

    /** The parsed JSON answer of {@code method path} ({@code body} written as JSON when not null). */
    Object request(String method, String path, Object body) {
        Observer observing = observer;
        if (observing != null) observing.sent(method, path, body);
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(timeout);
        if (body != null) {
            request.header("content-type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(Json.write(body), StandardCharsets.UTF_8));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        if (token != null) request.header("authorization", "Bearer " + token);
        HttpResponse<byte[]> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            // A server that is going down may refuse the connection just before it is seen to have exited.
            String why = death.get();
            for (int i = 0; why == null && i < 10; i++) {
                pause(100);
                why = death.get();
            }
            throw new MockAPNsException(why != null ? why : method + " " + baseUrl + path + " failed: " + e
                    + ". The mock is still running, but its control API did not answer.", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MockAPNsException("Interrupted during " + method + " " + baseUrl + path, e);
        }
        String text = new String(response.body(), StandardCharsets.UTF_8);
        if (response.statusCode() >= 300) {
            throw new MockAPNsException("The mock's control API answered " + method + " " + path + " with "
                    + response.statusCode() + ": " + errorSentence(text));
        }
        try {
            return text.isEmpty() ? null : Json.parse(response.body());
        } catch (IllegalArgumentException e) {
            throw new MockAPNsException("The mock's control API answered " + method + " " + path
                    + " with JSON the kit cannot read (" + e.getMessage() + "): " + abbreviate(text), e);
        }
    }

    /** The answer as an object; anything else is a MockAPNsException naming what came instead. */
    @SuppressWarnings("unchecked")
    Map<String, Object> object(String method, String path, Object body) {
        Object answer = request(method, path, body);
        if (!(answer instanceof Map)) {
            throw new MockAPNsException("The mock's control API answered " + method + " " + path + " with "
                    + Json.kind(answer) + " where the kit expects an object (is this mockapns too old for the kit?)");
        }
        return (Map<String, Object>) answer;
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The {@code error} of a JSON refusal, else the text itself. */
    private static String errorSentence(String text) {
        try {
            Object answer = Json.parse(text);
            if (answer instanceof Map && ((Map<?, ?>) answer).get("error") instanceof String) {
                return (String) ((Map<?, ?>) answer).get("error");
            }
        } catch (IllegalArgumentException notJson) {
            // the plain text is the best there is
        }
        return text.isBlank() ? "(no body)" : abbreviate(text.trim());
    }

    private static String abbreviate(String text) {
        return text.length() <= 500 ? text : text.substring(0, 500) + "…";
    }
}
