package dev.mockapns.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.mockapns.DeviceState;
import dev.mockapns.Filter;
import dev.mockapns.MockAPNs;
import dev.mockapns.TestSupport;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Test classes that use the extension, run by MockAPNsExtensionTest through the JUnit launcher (so it can look at
 * what happened after each class was done). Tagged "fixture": run-tests.sh does not run them on their own.
 */
@Tag("fixture")
final class ExtensionFixtures {
    /** Every mock a fixture was handed, in order, with where it was handed over. */
    static final List<String> EVENTS = new CopyOnWriteArrayList<>();
    static final List<MockAPNs> MOCKS = new CopyOnWriteArrayList<>();

    private ExtensionFixtures() {}

    static void saw(String where, MockAPNs mock) {
        EVENTS.add(where);
        MOCKS.add(mock);
    }

    @Tag("fixture")
    @ExtendWith(MockAPNsExtension.class)
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class FirstClass {
        private final MockAPNs fromConstructor;

        FirstClass(MockAPNs mock) {
            this.fromConstructor = mock;
        }

        @BeforeAll
        static void beforeAll(MockAPNs mock) {
            saw("first:beforeAll", mock);
        }

        @Test
        @Order(1)
        void sendsAndChangesTheMock(MockAPNs mock) throws Exception {
            saw("first:test1", mock);
            assertSame(mock, fromConstructor, "the constructor gets the class's mock");
            assertEquals(200, TestSupport.push(TestSupport.http2(mock), mock, TestSupport.PHONE, TestSupport.TOPIC,
                    "Hello").statusCode());
            mock.setDevice(TestSupport.TABLET, DeviceState.unregistered());
            mock.expect(new Filter().count(1));
        }

        @Test
        @Order(2)
        void startsFromAClearedMock(MockAPNs mock) throws Exception {
            saw("first:test2", mock);
            mock.expect(new Filter().count(0));
            assertEquals(200, TestSupport.push(TestSupport.http2(mock), mock, TestSupport.TABLET, TestSupport.TOPIC,
                    "Hello").statusCode(), "the device state of the test before is gone");
        }
    }

    @Tag("fixture")
    @ExtendWith(MockAPNsExtension.class)
    static class SecondClass {
        @Test
        void getsItsOwnMock(MockAPNs mock) {
            saw("second:test", mock);
            mock.expect(new Filter().count(0));
        }
    }

    /** How many times the failing builder was asked to start a mock. */
    static final AtomicInteger FAILING_STARTS = new AtomicInteger();
    /** The script the failing builder runs (set by the test before it runs the class). */
    static volatile Path failingBinary;

    @Tag("fixture")
    static class FailingClass {
        @RegisterExtension
        static MockAPNsExtension apns = new MockAPNsExtension(() -> {
            FAILING_STARTS.incrementAndGet();
            return MockAPNs.builder().binary(failingBinary);
        });

        @Test
        void first(MockAPNs mock) {
            saw("failing:first", mock);
        }

        @Test
        void second(MockAPNs mock) {
            saw("failing:second", mock);
        }
    }
}
