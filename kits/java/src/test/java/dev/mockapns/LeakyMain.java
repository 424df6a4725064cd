package dev.mockapns;

import java.nio.file.Path;

/**
 * A program that starts a mock and never closes it, for ShutdownHookTest: it prints what it started, then exits
 * through System.exit ("exit") or waits to be sent SIGTERM ("wait"). The kit's shutdown hook must clean up either way.
 */
public final class LeakyMain {
    private LeakyMain() {}

    public static void main(String[] args) throws InterruptedException {
        long began = System.nanoTime();
        MockAPNs mock = MockAPNs.start();
        long startup = System.nanoTime() - began;
        System.out.println("process=" + mock.process().map(p -> String.valueOf(p.pid())).orElse("")
                + " container=" + mock.containerName().orElse("")
                + " engine=" + mock.engine().map(Path::toString).orElse("") + " startup=" + startup);
        System.out.flush();
        if (args.length > 0 && args[0].equals("exit")) System.exit(0);
        Thread.sleep(Long.MAX_VALUE);
    }
}
