package dev.mockapns.junit;

import dev.mockapns.MockAPNs;
import dev.mockapns.MockAPNsException;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5: one mock per test class, cleared before each test, handed to any test, lifecycle method or constructor
 * that declares a {@link MockAPNs} parameter.
 *
 * <pre>{@code
 * @ExtendWith(MockAPNsExtension.class)
 * class SenderTest {
 *     @Test
 *     void shippingPushIsAccepted(MockAPNs mock) { ... mock.expect(new Filter().status(200)); }
 * }
 * }</pre>
 *
 * <p>The mock starts on first use (so {@code @BeforeAll} methods may take it too) and is kept in the test class's
 * {@link ExtensionContext.Store}, which closes it when the class is done. A mock that cannot start fails every test
 * of the class with the same message, without trying again; one that died is replaced for the next test. To
 * configure it, register the extension with a builder:
 *
 * <pre>{@code
 * @RegisterExtension
 * static MockAPNsExtension apns = new MockAPNsExtension(() -> MockAPNs.builder().args("--environment", "production"));
 * }</pre>
 */
public class MockAPNsExtension implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(MockAPNsExtension.class);

    private final Supplier<MockAPNs.Builder> builder;

    /** Mocks started as {@link MockAPNs#start()} starts them. */
    public MockAPNsExtension() {
        this(MockAPNs::builder);
    }

    /** Mocks started by {@code builder.get().start()}. */
    public MockAPNsExtension(Supplier<MockAPNs.Builder> builder) {
        this.builder = builder;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        session(context).mock();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        session(context).mock().clear();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == MockAPNs.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        try {
            return session(context).mock();
        } catch (MockAPNsException e) {
            throw new ParameterResolutionException(e.getMessage(), e);
        }
    }

    /**
     * The test class's session, kept in the store of the class's own context (method contexts find it through their
     * parent), made on first use.
     */
    private Session session(ExtensionContext context) {
        ExtensionContext classContext = context;
        while (classContext.getTestMethod().isPresent() && classContext.getParent().isPresent()) {
            classContext = classContext.getParent().get();
        }
        Class<?> testClass = classContext.getRequiredTestClass();
        return classContext.getStore(NAMESPACE).getOrComputeIfAbsent(testClass, key -> new Session(builder),
                Session.class);
    }

    /** One class's mock, or why it could not start; closed with the class's store. */
    static final class Session implements ExtensionContext.Store.CloseableResource {
        private final Supplier<MockAPNs.Builder> builder;
        private MockAPNs mock;
        private String startFailure;

        Session(Supplier<MockAPNs.Builder> builder) {
            this.builder = builder;
        }

        synchronized MockAPNs mock() {
            if (startFailure != null) throw new MockAPNsException(startFailure);
            if (mock != null && !mock.isRunning()) {
                String why = mock.stoppedReason();
                mock.close();
                mock = null;
                System.err.println("MockAPNsExtension: started a new mock APNs server for this test: " + why);
            }
            if (mock == null) {
                try {
                    mock = builder.get().start();
                } catch (MockAPNsException e) {
                    startFailure = "MockAPNsExtension: the mock APNs server could not start. " + e.getMessage();
                    throw new MockAPNsException(startFailure, e);
                }
            }
            return mock;
        }

        @Override
        public synchronized void close() {
            if (mock != null) {
                mock.close();
                mock = null;
            }
        }
    }
}
