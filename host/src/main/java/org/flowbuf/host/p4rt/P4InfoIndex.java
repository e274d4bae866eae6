/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.p4rt;

import com.google.protobuf.TextFormat;
import p4.config.v1.P4InfoOuterClass.Action;
import p4.config.v1.P4InfoOuterClass.ControllerPacketMetadata;
import p4.config.v1.P4InfoOuterClass.MatchField;
import p4.config.v1.P4InfoOuterClass.Meter;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.config.v1.P4InfoOuterClass.Table;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Looks up p4info objects by name, so that entries are written with the ids
 * the compiler assigned (which differ between p4c runs).
 */
public final class P4InfoIndex {

    private final P4Info p4info;
    private final Map<String, Table> tables = new HashMap<>();
    private final Map<String, Action> actions = new HashMap<>();
    private final Map<String, ControllerPacketMetadata> packetMetadata = new HashMap<>();
    private final Map<String, Meter> meters = new HashMap<>();
    private final Map<String, Integer> registers = new HashMap<>();
    private final Map<String, Integer> digests = new HashMap<>();
    private final Map<String, Integer> counters = new HashMap<>();

    /**
     * Indexes a p4info.
     *
     * @param p4info the p4info
     */
    public P4InfoIndex(P4Info p4info) {
        this.p4info = Objects.requireNonNull(p4info);
        p4info.getTablesList().forEach(t -> tables.put(t.getPreamble().getName(), t));
        p4info.getActionsList().forEach(a -> actions.put(a.getPreamble().getName(), a));
        p4info.getMetersList().forEach(m -> meters.put(m.getPreamble().getName(), m));
        p4info.getRegistersList().forEach(r -> registers.put(r.getPreamble().getName(),
                                                             r.getPreamble().getId()));
        p4info.getCountersList().forEach(c -> counters.put(c.getPreamble().getName(),
                                                           c.getPreamble().getId()));
        p4info.getDigestsList().forEach(d -> digests.put(d.getPreamble().getName(),
                                                         d.getPreamble().getId()));
        p4info.getControllerPacketMetadataList()
                .forEach(m -> packetMetadata.put(m.getPreamble().getName(), m));
    }

    /**
     * Reads a p4info in protobuf text format (p4c's p4info.txt).
     *
     * @param file the file
     * @return the index
     * @throws IOException when the file cannot be read or parsed
     */
    public static P4InfoIndex read(Path file) throws IOException {
        P4Info.Builder builder = P4Info.newBuilder();
        TextFormat.merge(Files.readString(file, StandardCharsets.UTF_8), builder);
        return new P4InfoIndex(builder.build());
    }

    /**
     * The p4info itself.
     *
     * @return p4info
     */
    public P4Info p4info() {
        return p4info;
    }

    /**
     * A table by its fully qualified name.
     *
     * @param name e.g. IngressPipeImpl.steering.flow_steering
     * @return the table
     * @throws IllegalArgumentException when the p4info has no such table
     */
    public Table table(String name) {
        return found(tables.get(name), "table", name);
    }

    /**
     * A match field of a table.
     *
     * @param table table
     * @param name  field name
     * @return the field
     * @throws IllegalArgumentException when the table has no such field
     */
    public MatchField matchField(Table table, String name) {
        return found(table.getMatchFieldsList().stream().filter(f -> f.getName().equals(name))
                             .findFirst().orElse(null),
                     "match field of " + table.getPreamble().getName(), name);
    }

    /**
     * An action by its fully qualified name.
     *
     * @param name action name
     * @return the action
     * @throws IllegalArgumentException when the p4info has no such action
     */
    public Action action(String name) {
        return found(actions.get(name), "action", name);
    }

    /**
     * An indexed meter by its fully qualified name.
     *
     * @param name meter name
     * @return the meter
     * @throws IllegalArgumentException when the p4info has no such meter
     */
    public Meter meter(String name) {
        return found(meters.get(name), "meter", name);
    }

    /**
     * The id of a register by its name.
     *
     * @param name register name
     * @return its id
     * @throws IllegalArgumentException when the p4info has no such register
     */
    public int registerId(String name) {
        return found(registers.get(name), "register", name);
    }

    /**
     * The id of an indexed counter by its name.
     *
     * @param name counter name (e.g. IngressPipeImpl.upf.session_counter)
     * @return its id
     * @throws IllegalArgumentException when the p4info has no such counter
     */
    public int counterId(String name) {
        return found(counters.get(name), "counter", name);
    }

    /**
     * The id of a digest by the name of its type (e.g. cc_digest_t).
     *
     * @param name digest name
     * @return its id
     * @throws IllegalArgumentException when the p4info has no such digest
     */
    public int digestId(String name) {
        return found(digests.get(name), "digest", name);
    }

    /**
     * A parameter of an action.
     *
     * @param action action
     * @param name   parameter name
     * @return the parameter
     * @throws IllegalArgumentException when the action has no such parameter
     */
    public Action.Param param(Action action, String name) {
        return found(action.getParamsList().stream().filter(p -> p.getName().equals(name))
                             .findFirst().orElse(null),
                     "parameter of " + action.getPreamble().getName(), name);
    }

    /**
     * The controller packet metadata header of a direction.
     *
     * @param name packet_in or packet_out
     * @return its metadata
     * @throws IllegalArgumentException when the p4info has none
     */
    public ControllerPacketMetadata packetMetadata(String name) {
        return found(packetMetadata.get(name), "controller packet metadata", name);
    }

    private static <T> T found(T value, String kind, String name) {
        if (value == null) {
            throw new IllegalArgumentException("the p4info has no " + kind + " \"" + name + "\"");
        }
        return value;
    }
}
