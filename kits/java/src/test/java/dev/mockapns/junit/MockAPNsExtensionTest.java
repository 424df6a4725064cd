package dev.mockapns.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.mockapns.MockAPNs;
import dev.mockapns.TestSupport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/** The extension's lifecycle, watched from outside: the fixture classes run through the JUnit launcher. */
class MockAPNsExtensionTest {
    /** What the launcher reported, by display name, and whether the first class's mock ran when a class finished. */
    private final Map<String, TestExecutionResult> results = new ConcurrentHashMap<>();
    private final List<Boolean> firstMockRunningWhenAClassFinished = new ArrayList<>();

    @BeforeEach
    void forgetEarlierRuns() {
        ExtensionFixtures.EVENTS.clear();
        ExtensionFixtures.MOCKS.clear();
        ExtensionFixtures.FAILING_STARTS.set(0);
    }

    private TestExecutionSummary run(Class<?>... classes) {
        LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
        for (Class<?> testClass : classes) request.selectors(selectClass(testClass));
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        TestExecutionListener watcher = new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                results.put(id.getDisplayName(), result);
                if (id.isContainer() && id.getDisplayName().endsWith("Class") && !ExtensionFixtures.MOCKS.isEmpty()) {
                    firstMockRunningWhenAClassFinished.add(ExtensionFixtures.MOCKS.get(0).isRunning());
                }
            }
        };
        Launcher launcher = LauncherFactory.create();
        launcher.execute(request.build(), summary, watcher);
        return summary.getSummary();
    }

    @Test
    void oneMockPerClassClearedBeforeEachTestInjectedEverywhereAndClosedWithTheClass() {
        TestExecutionSummary summary = run(ExtensionFixtures.FirstClass.class, ExtensionFixtures.SecondClass.class);
        StringBuilder failures = new StringBuilder();
        summary.getFailures().forEach(f -> failures.append(f.getTestIdentifier().getDisplayName()).append(": ")
                .append(f.getException()).append('\n'));
        assertEquals(0, summary.getTotalFailureCount(), failures.toString());
        assertEquals(3, summary.getTestsSucceededCount());

        assertEquals(List.of("first:beforeAll", "first:test1", "first:test2", "second:test"), ExtensionFixtures.EVENTS);
        List<MockAPNs> mocks = ExtensionFixtures.MOCKS;
        assertSame(mocks.get(0), mocks.get(1), "@BeforeAll and the first test share the class's mock");
        assertSame(mocks.get(0), mocks.get(2), "so does the second test");
        assertNotSame(mocks.get(0), mocks.get(3), "another class gets a mock of its own");
        assertEquals(List.of(false, false), firstMockRunningWhenAClassFinished,
                "the first class's mock was closed by the time the class was reported finished");
        for (MockAPNs mock : mocks) {
            assertFalse(mock.isRunning());
            TestSupport.assertGone(mock);
        }
    }

    @Test
    void aMockThatCannotStartFailsTheClassOnceWithTheReason(@TempDir Path dir) throws Exception {
        ExtensionFixtures.failingBinary = TestSupport.script(dir, "mockapns", "echo 'cannot start: no licence' >&2\nexit 2");
        TestExecutionSummary summary = run(ExtensionFixtures.FailingClass.class);
        assertEquals(1, ExtensionFixtures.FAILING_STARTS.get(), "tried once");
        assertEquals(List.of(), ExtensionFixtures.EVENTS, "no test ran without a mock");
        assertEquals(1, summary.getTotalFailureCount());
        Throwable failure = summary.getFailures().get(0).getException();
        assertTrue(failure.getMessage().startsWith("MockAPNsExtension: the mock APNs server could not start. `"
                + ExtensionFixtures.failingBinary + " serve "), failure.getMessage());
        assertTrue(failure.getMessage().contains("exited with code 2 before it was ready. Its output:\n"
                + "    cannot start: no licence"), failure.getMessage());
        assertEquals(TestExecutionResult.Status.FAILED, results.get("ExtensionFixtures$FailingClass").getStatus());
    }
}
