package example;

import dev.metahook.Metahook;

/** The same controller served by Metahook.serve alone, without Spring: what the Boot application is compared with. */
public final class PlainService {
    private PlainService() {
    }

    public static void main(String[] args) {
        Metahook.serve(WebAppApplication.registration());
    }
}
