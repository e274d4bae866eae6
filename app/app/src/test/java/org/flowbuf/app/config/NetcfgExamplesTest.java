/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.pipeconf.FlowBufPipeconfs;
import org.junit.Test;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.SubjectFactory;
import org.onosproject.net.config.basics.BasicDeviceConfig;
import org.onosproject.net.config.basics.BasicHostConfig;
import org.onosproject.net.config.basics.BasicLinkConfig;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.onosproject.net.config.basics.SubjectFactories.DEVICE_SUBJECT_FACTORY;
import static org.onosproject.net.config.basics.SubjectFactories.HOST_SUBJECT_FACTORY;
import static org.onosproject.net.config.basics.SubjectFactories.LINK_SUBJECT_FACTORY;

/**
 * The committed netcfg examples (stratum-configs/*netcfg*.json) load through
 * ONOS's own Config classes as {@code onos-netcfg} would apply them: each
 * subject key parses with ONOS's subject factory, each config key is one
 * ONOS 2.7 or FlowBuf registers, and each config is {@code isValid()}. A
 * typo or a bad value fails the build naming the file and the key.
 */
public class NetcfgExamplesTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Path EXAMPLES = Paths.get(System.getProperty("basedir", "."))
            .resolve("../../stratum-configs").normalize();

    /** The config classes the examples may use: ONOS 2.7's basic ones and FlowBuf's. */
    private static final List<Registered> REGISTERED = List.of(
            new Registered(DEVICE_SUBJECT_FACTORY, "basic", BasicDeviceConfig::new),
            new Registered(DEVICE_SUBJECT_FACTORY, FlowBufDeviceConfig.CONFIG_KEY, FlowBufDeviceConfig::new),
            new Registered(HOST_SUBJECT_FACTORY, "basic", BasicHostConfig::new),
            new Registered(LINK_SUBJECT_FACTORY, "basic", BasicLinkConfig::new));

    @Test
    public void committedExamplesAreValid() throws IOException {
        List<Path> files = examples();
        assertFalse("no *netcfg*.json in " + EXAMPLES, files.isEmpty());
        List<String> problems = new ArrayList<>();
        for (Path file : files) {
            problems.addAll(problems(file.toString(), MAPPER.readTree(file.toFile())));
        }
        if (!problems.isEmpty()) {
            fail("netcfg examples that ONOS 2.7 or FlowBuf would refuse:\n  " + String.join("\n  ", problems));
        }
    }

    @Test
    public void aMisspelledKeyIsRefused() throws IOException {
        ObjectNode netcfg = firstExample();
        ObjectNode flowbuf = firstConfig(netcfg, FlowBufDeviceConfig.CONFIG_KEY);
        flowbuf.set("agentAdress", flowbuf.remove(FlowBufDeviceConfig.AGENT_ADDRESS));
        assertProblem(netcfg, "." + FlowBufDeviceConfig.CONFIG_KEY, "agentAdress");

        netcfg = firstExample();
        ObjectNode basic = firstConfig(netcfg, "basic");
        basic.set("managementAdress", basic.remove("managementAddress"));
        assertProblem(netcfg, ".basic", "managementAdress");

        netcfg = firstExample();
        ObjectNode device = (ObjectNode) netcfg.get("devices").elements().next();
        device.set("flowbfu", device.remove(FlowBufDeviceConfig.CONFIG_KEY));
        assertProblem(netcfg, ".flowbfu", "no config class");
    }

    @Test
    public void aWrongValueIsRefused() throws IOException {
        ObjectNode netcfg = firstExample();
        firstConfig(netcfg, FlowBufDeviceConfig.CONFIG_KEY).put(FlowBufDeviceConfig.IN_PROCESS, "no");
        assertProblem(netcfg, "." + FlowBufDeviceConfig.CONFIG_KEY, FlowBufDeviceConfig.IN_PROCESS);

        netcfg = firstExample();
        ObjectNode vport = (ObjectNode) firstConfig(netcfg, FlowBufDeviceConfig.CONFIG_KEY)
                .get(FlowBufDeviceConfig.VPORTS).get(0);
        vport.put(FlowBufDeviceConfig.SWITCH_PORT, "100");
        assertProblem(netcfg, "." + FlowBufDeviceConfig.CONFIG_KEY, FlowBufDeviceConfig.SWITCH_PORT);

        netcfg = firstExample();
        ObjectNode host = (ObjectNode) netcfg.get("hosts").elements().next().get("basic");
        host.putArray("ips").add("10.0.0.300");
        assertProblem(netcfg, "hosts.", "10.0.0.300");

        netcfg = firstExample();
        firstConfig(netcfg, "basic").put("pipeconf", "org.flowbuf.pipecon");
        assertProblem(netcfg, ".basic", "org.flowbuf.pipecon");
    }

    @Test
    public void aBadSubjectIsRefused() throws IOException {
        ObjectNode netcfg = firstExample();
        ObjectNode hosts = (ObjectNode) netcfg.get("hosts");
        String id = hosts.fieldNames().next();
        hosts.set("00:00:00:00:00:0g/None", hosts.remove(id));
        assertProblem(netcfg, "hosts.00:00:00:00:00:0g/None", "subject");
    }

    /**
     * What is wrong with a netcfg document, one line per problem.
     *
     * @param file   name of the document, for the messages
     * @param netcfg the document
     * @return problems, empty when ONOS would accept every config in it
     */
    static List<String> problems(String file, JsonNode netcfg) {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, JsonNode> subjects : fields(netcfg)) {
            String classKey = subjects.getKey();
            if (REGISTERED.stream().noneMatch(r -> r.subjects.subjectClassKey().equals(classKey))) {
                problems.add(file + ": " + classKey + ": no config class for these subjects");
                continue;
            }
            for (Map.Entry<String, JsonNode> subject : fields(subjects.getValue())) {
                for (Map.Entry<String, JsonNode> config : fields(subject.getValue())) {
                    String where = file + ": " + classKey + "." + subject.getKey() + "." + config.getKey();
                    String problem = problem(classKey, subject.getKey(), config.getKey(), config.getValue());
                    if (problem != null) {
                        problems.add(where + ": " + problem);
                    }
                }
            }
        }
        return problems;
    }

    private static String problem(String classKey, String subjectKey, String configKey, JsonNode json) {
        Registered registered = REGISTERED.stream()
                .filter(r -> r.subjects.subjectClassKey().equals(classKey) && r.key.equals(configKey))
                .findFirst().orElse(null);
        if (registered == null) {
            return "no config class with this key for " + classKey;
        }
        Object subject;
        try {
            subject = registered.subjects.createSubject(subjectKey);
        } catch (RuntimeException e) {
            return "bad subject: " + e.getMessage();
        }
        String error = validationError(registered, subject, configKey, json);
        if (error == null && json.has("pipeconf") && json.get("pipeconf").asText().startsWith("org.flowbuf")
                && !json.get("pipeconf").asText().equals(FlowBufPipeconfs.PIPECONF_ID.id())) {
            error = "pipeconf " + json.get("pipeconf") + " is not FlowBuf's " + FlowBufPipeconfs.PIPECONF_ID;
        }
        if (error == null || !json.isObject()) {
            return error;
        }
        // Name the key: the config is valid without it.
        for (Iterator<String> keys = json.fieldNames(); keys.hasNext();) {
            String key = keys.next();
            ObjectNode without = ((ObjectNode) json).deepCopy();
            without.remove(key);
            if (validationError(registered, subject, configKey, without) == null) {
                return error + " (key \"" + key + "\": " + json.get(key) + ")";
            }
        }
        return error;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static String validationError(Registered registered, Object subject, String key, JsonNode json) {
        Config config = registered.create.get();
        config.init(subject, key, json, MAPPER, c -> { });
        try {
            if (config instanceof FlowBufDeviceConfig) {
                return ((FlowBufDeviceConfig) config).validationError().orElse(null);
            }
            return config.isValid() ? null : "not valid for " + config.getClass().getSimpleName();
        } catch (RuntimeException e) {
            return "not valid for " + config.getClass().getSimpleName() + ": " + e;
        }
    }

    private static Iterable<Map.Entry<String, JsonNode>> fields(JsonNode node) {
        return node::fields;
    }

    private static List<Path> examples() throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(EXAMPLES, "*netcfg*.json")) {
            dir.forEach(files::add);
        }
        files.sort(null);
        return files;
    }

    private static ObjectNode firstExample() throws IOException {
        return (ObjectNode) MAPPER.readTree(examples().get(0).toFile());
    }

    private static ObjectNode firstConfig(ObjectNode netcfg, String key) {
        return (ObjectNode) netcfg.get("devices").elements().next().get(key);
    }

    private static void assertProblem(ObjectNode netcfg, String where, String what) {
        List<String> problems = problems("corrupted", netcfg);
        assertTrue("a corrupted copy should be refused at " + where + " naming " + what + "; problems: "
                           + problems,
                   problems.stream().anyMatch(p -> p.contains(where) && p.contains(what)));
    }

    /** A config class registered for a subject class under a key. */
    private static final class Registered {
        final SubjectFactory<?> subjects;
        final String key;
        final Supplier<Config<?>> create;

        Registered(SubjectFactory<?> subjects, String key, Supplier<Config<?>> create) {
            this.subjects = subjects;
            this.key = key;
            this.create = create;
        }
    }
}
