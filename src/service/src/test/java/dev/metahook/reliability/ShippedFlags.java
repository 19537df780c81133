package dev.metahook.reliability;

import java.io.IOException;

/**
 * Prints the JVM flags the image runs the service with, one a line: {@code -XX:MaxRAM} set to the
 * Deployment's memory limit, then the Dockerfile entrypoint's flags without its class archive (the
 * benchmark adds its own). For src/bench/run, so the benchmark never hard-codes them.
 */
public final class ShippedFlags {
    private ShippedFlags() {
    }

    public static void main(String[] args) throws IOException {
        System.out.println("-XX:MaxRAM=" + MetahookProcess.containerMemoryLimitBytes());
        MetahookProcess.shippedJvmFlags().forEach(System.out::println);
    }
}
