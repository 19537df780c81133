package example;

import org.springframework.stereotype.Service;

/** The team's own service: where a WebApp is reached in the cluster. */
@Service
public class ServiceUrls {
    public String of(String name, String namespace, int port) {
        return "http://" + name + "." + namespace + ".svc:" + port;
    }
}
