package dev.metahook.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.metahook.testkit.CheckReport;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * How {@code check} writes its report: {@code text} (one line per breach, the phases, the call rates), {@code json}
 * (the test kit's {@link CheckReport}, which reads it back) or {@code junit} (JUnit XML as
 * CI servers read it: one test suite for the run, one test case per phase of the life, a failed phase's breaches in
 * its {@code <failure>}).
 */
enum CheckFormat {
    TEXT, JSON, JUNIT;

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    static CheckFormat of(String name, String usage) {
        if (name == null) {
            return TEXT;
        }
        try {
            return valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--format must be text, json or junit, got '" + name + "'\n" + usage);
        }
    }

    /** The report in this format; {@code suite} names the run (the controller and the parent) in JUnit. */
    String write(CheckReport report, String suite) {
        return switch (this) {
            case TEXT -> text(report);
            case JSON -> json(report);
            case JUNIT -> junit(report, suite);
        };
    }

    static String text(CheckReport report) {
        StringBuilder text = new StringBuilder();
        for (CheckReport.Breach breach : report.breaches()) {
            text.append("BREACH ").append(line(report, breach)).append('\n');
        }
        text.append(report.clean() ? "check: clean (" + report.calls() + " hook calls)"
                : "check: " + report.breaches().size() + " breaches in " + report.calls() + " hook calls").append('\n');
        text.append("hook calls and child writes per phase: ").append(report.phases().stream()
                .map(phase -> phase.name() + " " + phase.calls() + "/" + phase.writes()).collect(Collectors.joining(", "))).append('\n');
        if (report.rates() != null) {
            CheckReport.Rates rates = report.rates();
            text.append("calls per simulated minute: ").append(rates.atRest()).append(" at rest, ").append(rates.stalled())
                    .append(" while stalled (").append(rates.stalledDoing()).append(")\n");
        }
        text.append("checked on ").append(report.versions()).append('\n');
        return text.toString();
    }

    /**
     * A breach as {@code check} prints it after {@code BREACH}: its kind, the Kubernetes minors it holds on when they
     * are not all that were checked ({@code needless-update on Kubernetes 1.34-1.37}), and its message.
     */
    static String line(CheckReport report, CheckReport.Breach breach) {
        boolean everyVersion = report.versions().startsWith(breach.versions() + ",");
        return breach.kind() + (everyVersion ? "" : " on " + breach.versions()) + ": " + breach.message();
    }

    static String json(CheckReport report) {
        try {
            return MAPPER.writeValueAsString(report) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * JUnit XML: {@code <testsuites>} with one {@code <testsuite>} named after the run, a {@code <testcase>} per phase
     * (classname {@code metahook.check}, name the phase; the phase's calls and writes in its {@code <system-out>}),
     * and, for a phase with breaches, one {@code <failure>}: its message the first breach (and how many more), its
     * type the first breach's kind, its text every breach of the phase with where it was found. One failure per
     * test case because that is what GitHub's, GitLab's and Jenkins' readers show. No times: the same run gives the
     * same bytes.
     */
    static String junit(CheckReport report, String suite) {
        Map<String, List<CheckReport.Breach>> byPhase = new LinkedHashMap<>();
        report.phases().forEach(phase -> byPhase.put(phase.name(), new ArrayList<>()));
        report.breaches().forEach(breach -> byPhase.computeIfAbsent(breach.phase(), name -> new ArrayList<>()).add(breach));
        Map<String, CheckReport.Phase> phases = report.phases().stream()
                .collect(Collectors.toMap(CheckReport.Phase::name, phase -> phase));
        long failures = byPhase.values().stream().filter(breaches -> !breaches.isEmpty()).count();
        StringWriter out = new StringWriter();
        try {
            XMLStreamWriter xml = XMLOutputFactory.newInstance().createXMLStreamWriter(out);
            xml.writeStartDocument("UTF-8", "1.0");
            xml.writeCharacters("\n");
            xml.writeStartElement("testsuites");
            xml.writeAttribute("name", "metahook check");
            xml.writeAttribute("tests", Integer.toString(byPhase.size()));
            xml.writeAttribute("failures", Long.toString(failures));
            xml.writeAttribute("errors", "0");
            xml.writeCharacters("\n  ");
            xml.writeStartElement("testsuite");
            xml.writeAttribute("name", clean(suite));
            xml.writeAttribute("tests", Integer.toString(byPhase.size()));
            xml.writeAttribute("failures", Long.toString(failures));
            xml.writeAttribute("errors", "0");
            xml.writeAttribute("skipped", "0");
            for (Map.Entry<String, List<CheckReport.Breach>> entry : byPhase.entrySet()) {
                xml.writeCharacters("\n    ");
                xml.writeStartElement("testcase");
                xml.writeAttribute("classname", "metahook.check");
                xml.writeAttribute("name", entry.getKey());
                List<CheckReport.Breach> breaches = entry.getValue();
                if (!breaches.isEmpty()) {
                    CheckReport.Breach first = breaches.get(0);
                    xml.writeCharacters("\n      ");
                    xml.writeStartElement("failure");
                    xml.writeAttribute("type", first.kind());
                    xml.writeAttribute("message", clean(line(report, first) + (breaches.size() > 1 ? " (and " + (breaches.size() - 1) + " more)" : "")));
                    xml.writeCharacters(clean(breaches.stream().map(breach -> evidence(report, breach)).collect(Collectors.joining("\n\n"))));
                    xml.writeEndElement();
                }
                CheckReport.Phase phase = phases.get(entry.getKey());
                if (phase != null) {
                    xml.writeCharacters("\n      ");
                    xml.writeStartElement("system-out");
                    xml.writeCharacters(phase.calls() + " hook calls, " + phase.writes() + " child writes");
                    xml.writeEndElement();
                }
                xml.writeCharacters("\n    ");
                xml.writeEndElement();
            }
            xml.writeCharacters("\n  ");
            xml.writeEndElement();
            xml.writeCharacters("\n");
            xml.writeEndElement();
            xml.writeEndDocument();
            xml.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException(e);
        }
        return out + "\n";
    }

    /** A breach as the failure's text shows it: the line {@code check} prints, then where it was found. */
    private static String evidence(CheckReport report, CheckReport.Breach breach) {
        return "BREACH " + line(report, breach) + "\n  " + breach.hook() + (breach.call() > 0 ? " call " + breach.call() : "") + ", "
                + breach.object() + ", phase " + breach.phase();
    }

    /** Text XML 1.0 can hold: a character it cannot (a control character from a hook's answer) becomes U+FFFD. */
    private static String clean(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.codePoints().forEach(c -> out.appendCodePoint(c == 0x9 || c == 0xA || c == 0xD || c >= 0x20 && c <= 0xD7FF
                || c >= 0xE000 && c <= 0xFFFD || c >= 0x10000 && c <= 0x10FFFF ? c : 0xFFFD));
        return out.toString();
    }
}
