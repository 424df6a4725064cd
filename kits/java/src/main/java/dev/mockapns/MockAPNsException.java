package dev.mockapns;

/**
 * The mock could not start, has stopped, or refused a control request. The message says what went wrong and what
 * to do about it (with the server's or the container's last output where there is one).
 */
public class MockAPNsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MockAPNsException(String message) {
        super(message);
    }

    public MockAPNsException(String message, Throwable cause) {
        super(message, cause);
    }
}
