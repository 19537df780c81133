# metahook: the hook service behind a ClusterIP Service that Metacontroller calls.
# Build stage: the shaded jar, built with the same Maven and JDK line as CI.
# Base images are pinned by digest (a re-pushed tag cannot change what is built); the tag says what the digest
# is. Both digests are the multi-platform indexes docker-library/repo-info recorded in September 2026
# (Temurin 17.0.20+8); Renovate (.github/renovate.json) proposes new digests.
# maven:3-eclipse-temurin-17 (Maven 3.9, Temurin 17.0.20+8, Ubuntu 24.04)
FROM maven:3-eclipse-temurin-17@sha256:42a3ac393abbc64dae6c96703e5ead2e921fe9103371ac58b5b404b0d6a26502 AS build
WORKDIR /src
COPY pom.xml .
COPY src/bom/pom.xml src/bom/
COPY src/metahook/pom.xml src/metahook/
COPY src/test-support/pom.xml src/test-support/
COPY src/testkit/pom.xml src/testkit/
COPY src/manifests/pom.xml src/manifests/
COPY src/maven-plugin/pom.xml src/maven-plugin/
COPY src/spring-boot-starter/pom.xml src/spring-boot-starter/
COPY src/service/pom.xml src/service/
# The dependency layer: the same build on the poms alone. Every plugin of the package lifecycle is loaded
# with its own dependencies and the project's dependencies are resolved in every scope the build uses
# (dependency:go-offline leaves plugin dependencies out, which package then downloads).
RUN mvn -B -q -DskipTests -pl src/service -am package && rm -rf target src/*/target
COPY src ./src
# Offline: a dependency the layer above misses fails the build here instead of being downloaded.
RUN mvn -B -q -o -DskipTests -pl src/service -am package

# Runtime stage: a JRE only, a numeric non-root user, nothing written outside /tmp.
# eclipse-temurin:17-jre (Temurin 17.0.20+8 JRE, Ubuntu 26.04)
FROM eclipse-temurin:17-jre@sha256:c6f2875c05ea10f16398bdc5f73405c384991506f2f1ead8bcc6582ae8adea79
# OCI labels: VERSION defaults to the pom's <version> (ContainerTest keeps them equal); SOURCE, REVISION and
# CREATED come from the build command, read off the clone it builds (docs/deploy.md).
ARG VERSION=0.1.0-SNAPSHOT
ARG SOURCE=
ARG REVISION=
ARG CREATED=
LABEL org.opencontainers.image.title="metahook" \
      org.opencontainers.image.description="Kubernetes controllers in Java as Metacontroller hooks" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}"
WORKDIR /opt/metahook
COPY --from=build /src/target/metahook.jar /opt/metahook/metahook.jar
# The image's software bill of materials: the service jar's dependencies (CycloneDX JSON, made by the build).
COPY --from=build /src/src/service/target/metahook-sbom.json /opt/metahook/sbom.cdx.json
# Class data sharing: a training run (the service on 127.0.0.1:18080, checked through its own hooks
# once /readyz answers) records the classes it loads into an archive, and the service must then start
# from that archive with -Xshare:on, or the build fails. Starting from it roughly halves the time to ready.
COPY src/image/train metacontroller/webapp-controller.yaml metacontroller/database-controller.yaml \
     examples/webapp.yaml examples/database.yaml /tmp/training/
RUN bash /tmp/training/train /opt/metahook/metahook.jar /opt/metahook/metahook.jsa /tmp/training && rm -rf /tmp/training
ENV PORT=8080 \
    LOG_FORMAT=json
EXPOSE 8080
USER 10001:10001
# The class archive from the training run; heap half the container's memory limit, with the serial
# collector the JVM picks itself for a small container (explicit, so the reliability suite runs the
# same), and a young generation of 64 MiB from the start (the serial heap otherwise stays near 40 MiB under
# the realistic load, collecting 50 times a second: +34% req/s and -20% CPU per call for +50 MiB resident,
# docs/performance.md, run H): under the heaviest load docs/production.md measures, resident memory stays below 80% of the limit; the
# C library's heap is given back every 5 s (the JIT's freed arenas: about 12 MiB of the idle RSS, docs/performance.md);
# no perf data file, so the root file system can be read-only.
ENTRYPOINT ["java", "-XX:SharedArchiveFile=/opt/metahook/metahook.jsa", "-XX:MaxRAMPercentage=50.0", "-XX:+UseSerialGC", "-Xmn64m", "-XX:TrimNativeHeapInterval=5000", "-XX:+ExitOnOutOfMemoryError", "-XX:-UsePerfData", "-Djava.io.tmpdir=/tmp", "-jar", "/opt/metahook/metahook.jar"]
CMD ["serve"]
