# metahook: the hook service behind a ClusterIP Service that Metacontroller calls.
# Build stage: the shaded jar, built with the same Maven and JDK line as CI.
FROM maven:3.9.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY pom.xml .
RUN mvn -B -q dependency:go-offline
COPY src ./src
RUN mvn -B -q -DskipTests package

# Runtime stage: a JRE only, a numeric non-root user, nothing written outside /tmp.
FROM eclipse-temurin:17.0.15_6-jre
LABEL org.opencontainers.image.title="metahook" \
      org.opencontainers.image.description="Kubernetes controllers in Java as Metacontroller hooks" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="0.1.0"
WORKDIR /opt/metahook
COPY --from=build /src/target/metahook.jar /opt/metahook/metahook.jar
# Class data sharing: a training run (the service checked through its own hooks) records the classes
# it loads into an archive; starting from the archive roughly halves the time to ready.
COPY metacontroller/webapp-controller.yaml metacontroller/database-controller.yaml examples/webapp.yaml examples/database.yaml /tmp/training/
RUN java -XX:ArchiveClassesAtExit=/opt/metahook/metahook.jsa -jar /opt/metahook/metahook.jar serve & pid=$!; \
    sleep 5; \
    java -jar /opt/metahook/metahook.jar check --controller /tmp/training/webapp-controller.yaml \
        --parent /tmp/training/webapp.yaml --url http://127.0.0.1:8080; webapp=$?; \
    java -jar /opt/metahook/metahook.jar check --controller /tmp/training/database-controller.yaml \
        --parent /tmp/training/database.yaml --url http://127.0.0.1:8080; database=$?; \
    kill $pid; wait $pid; \
    test $webapp -eq 0 && test $database -eq 0 && test -s /opt/metahook/metahook.jsa && rm -rf /tmp/training
ENV PORT=8080 \
    LOG_FORMAT=json
EXPOSE 8080
USER 10001:10001
# The class archive from the training run; heap from the container's memory limit; no perf data file,
# so the root file system can be read-only.
ENTRYPOINT ["java", "-XX:SharedArchiveFile=/opt/metahook/metahook.jsa", "-XX:MaxRAMPercentage=75.0", "-XX:+ExitOnOutOfMemoryError", "-XX:-UsePerfData", "-Djava.io.tmpdir=/tmp", "-jar", "/opt/metahook/metahook.jar"]
CMD ["serve"]
