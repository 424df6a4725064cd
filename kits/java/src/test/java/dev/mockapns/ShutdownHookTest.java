package dev.mockapns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A JVM that ends without closing its mock (System.exit, SIGTERM) leaves no server process and no container. */
class ShutdownHookTest {
    @ParameterizedTest
    @ValueSource(strings = {"exit", "wait"})
    void theJvmsExitStopsAMockNobodyClosed(String how) throws Exception {
        String classpath = System.getProperty("mockapns.test.classpath");
        assertTrue(classpath != null, "run-tests.sh passes -Dmockapns.test.classpath");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(List.of(java.toString(), "-cp", classpath, LeakyMain.class.getName(), how))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String line = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).get(180, TimeUnit.SECONDS);
            assertTrue(line != null && line.startsWith("process="), "the child started a mock: " + line);
            String[] fields = line.split(" ");
            String pid = fields[0].substring("process=".length());
            String container = fields[1].substring("container=".length());
            String engine = fields[2].substring("engine=".length());
            TestSupport.recordStartup(Long.parseLong(fields[3].substring("startup=".length())));

            if (how.equals("wait")) child.destroy(); // SIGTERM, as a build tool stops a forked test JVM
            assertTrue(child.waitFor(120, TimeUnit.SECONDS), "the child JVM exited");
            assertEquals(how.equals("exit") ? 0 : 143, child.exitValue());
            if (!pid.isEmpty()) {
                long server = Long.parseLong(pid);
                assertFalse(ProcessHandle.of(server).map(ProcessHandle::isAlive).orElse(false),
                        "the mockapns process " + server + " was stopped with the JVM");
            } else {
                assertFalse(container.isEmpty(), line);
                assertFalse(TestSupport.containerExists(Path.of(engine), container),
                        "the container " + container + " was removed with the JVM");
            }
        } finally {
            child.destroyForcibly();
        }
    }
}
