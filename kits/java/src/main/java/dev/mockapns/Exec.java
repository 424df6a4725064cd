package dev.mockapns;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Running short commands (the container engine's) and finding programs, with the kit's own environment. */
final class Exec {
    private Exec() {}

    /** How a command ended: its exit code (-1: killed after its timeout), stdout and stderr. */
    static final class Result {
        final List<String> command;
        final int code;
        final String stdout;
        final String stderr;

        Result(List<String> command, int code, String stdout, String stderr) {
            this.command = command;
            this.code = code;
            this.stdout = stdout;
            this.stderr = stderr;
        }

        boolean ok() {
            return code == 0;
        }

        /** The command as a person would type it, for messages. */
        String commandLine() {
            return String.join(" ", command);
        }

        /** The last non-blank line of stderr (else stdout), or "no output". */
        String lastLine() {
            List<String> lines = tailLines(stderr.isBlank() ? stdout : stderr, 1);
            return lines.isEmpty() ? "no output" : lines.get(0).trim();
        }
    }

    /** Runs {@code command} with {@code env} as its whole environment; kills it after {@code timeout}. */
    static Result run(List<String> command, Map<String, String> env, Duration timeout) {
        ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(devNull()));
        builder.environment().clear();
        builder.environment().putAll(env);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            return new Result(command, 127, "", "cannot run " + command.get(0) + ": " + e.getMessage());
        }
        CompletableFuture<String> out = drain(process.getInputStream());
        CompletableFuture<String> err = drain(process.getErrorStream());
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
                return new Result(command, -1, out.getNow(""),
                        "did not finish within " + timeout.toSeconds() + " s and was killed\n" + err.getNow(""));
            }
            return new Result(command, process.exitValue(), out.join(), err.join());
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new MockAPNsException("Interrupted while running " + String.join(" ", command), e);
        }
    }

    private static CompletableFuture<String> drain(InputStream stream) {
        return CompletableFuture.supplyAsync(() -> {
            try (InputStream in = stream) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).exceptionally(e -> "");
    }

    static File devNull() {
        return new File("/dev/null");
    }

    /** The executable called {@code name} in the folders of {@code path} (a PATH value), if any. */
    static Optional<Path> onPath(String name, String path) {
        if (path == null) return Optional.empty();
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) return Optional.of(candidate);
        }
        return Optional.empty();
    }

    /** The last {@code n} non-blank lines of {@code text}. */
    static List<String> tailLines(String text, int n) {
        List<String> lines = new ArrayList<>();
        for (String line : text.split("\\R")) {
            if (!line.isBlank()) lines.add(line);
        }
        return lines.subList(Math.max(0, lines.size() - n), lines.size());
    }

    /** The last {@code n} lines of {@code text}, indented for a message; "(no output)" when there are none. */
    static String tail(String text, int n) {
        List<String> lines = tailLines(text, n);
        if (lines.isEmpty()) return "    (no output)";
        StringBuilder out = new StringBuilder();
        for (String line : lines) out.append(out.length() == 0 ? "" : "\n").append("    ").append(line);
        return out.toString();
    }

    /** The file's text, or "" when it cannot be read. */
    static String readQuietly(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** Deletes a folder and everything in it, ignoring what cannot be deleted. */
    static void deleteTree(Path dir) {
        if (dir == null || !Files.exists(dir)) return;
        try (var paths = Files.walk(dir)) {
            paths.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // best effort: a temporary folder left behind is harmless
                }
            });
        } catch (IOException | UncheckedIOException ignored) {
            // same
        }
    }

    static List<String> list(String... items) {
        return new ArrayList<>(Arrays.asList(items));
    }
}
