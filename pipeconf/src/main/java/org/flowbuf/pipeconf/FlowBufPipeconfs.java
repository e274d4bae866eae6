/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.pipeconf;

import org.onosproject.net.behaviour.Pipeliner;
import org.onosproject.net.pi.model.DefaultPiPipeconf;
import org.onosproject.net.pi.model.PiPipeconf;
import org.onosproject.net.pi.model.PiPipeconfId;
import org.onosproject.net.pi.model.PiPipelineInterpreter;
import org.onosproject.net.pi.model.PiPipelineModel;
import org.onosproject.p4runtime.model.P4InfoParser;
import org.onosproject.p4runtime.model.P4InfoParserException;

import java.net.URL;
import java.util.List;

import static org.onosproject.net.pi.model.PiPipeconf.ExtensionType.BMV2_JSON;
import static org.onosproject.net.pi.model.PiPipeconf.ExtensionType.CPU_PORT_TXT;
import static org.onosproject.net.pi.model.PiPipeconf.ExtensionType.P4_INFO_TEXT;

/**
 * Builds the FlowBuf pipeconfs from the p4info and bmv2 JSON in the bundle:
 * the default one and the hybrid UPF's profiles, the same program compiled
 * with other table sizes (tools/p4-build.sh).
 */
public final class FlowBufPipeconfs {

    /** The id devices name in their netcfg ("pipeconf"). */
    public static final PiPipeconfId PIPECONF_ID = new PiPipeconfId("org.flowbuf.pipeconf");
    /** The hybrid UPF's fast path: tables sized like a hardware switch's (4,096 sessions). */
    public static final PiPipeconfId UPF_FAST_ID = new PiPipeconfId("org.flowbuf.pipeconf.upf-fast");
    /** The hybrid UPF's slow path (x86): 1,048,576 sessions. */
    public static final PiPipeconfId UPF_SLOW_ID = new PiPipeconfId("org.flowbuf.pipeconf.upf-slow");
    /** Every pipeconf the bundle registers. */
    public static final List<PiPipeconfId> ALL_IDS = List.of(PIPECONF_ID, UPF_FAST_ID, UPF_SLOW_ID);
    static final String P4INFO = "/p4/p4info.txt";
    static final String BMV2_JSON_FILE = "/p4/bmv2.json";
    private static final String CPU_PORT_FILE = "/p4/cpu_port.txt";

    private FlowBufPipeconfs() {
    }

    /**
     * Whether id is one of the FlowBuf pipeconfs (the default or a UPF
     * profile: the same program, so every FlowBuf feature runs on it).
     *
     * @param id a pipeconf id
     * @return true for one of {@link #ALL_IDS}
     */
    public static boolean isFlowBuf(PiPipeconfId id) {
        return ALL_IDS.contains(id);
    }

    /**
     * Builds the default pipeconf.
     *
     * @return the pipeconf
     * @throws IllegalStateException when the bundle's p4info is missing or unreadable
     */
    public static PiPipeconf build() {
        return build(PIPECONF_ID);
    }

    /**
     * Builds one of the bundle's pipeconfs.
     *
     * @param id one of {@link #ALL_IDS}
     * @return the pipeconf
     * @throws IllegalArgumentException when id is not one of the bundle's
     * @throws IllegalStateException when its p4info is missing or unreadable
     */
    public static PiPipeconf build(PiPipeconfId id) {
        String dir = directory(id);
        URL p4info = resource(dir + "/p4info.txt");
        PiPipelineModel model;
        try {
            model = P4InfoParser.parse(p4info);
        } catch (P4InfoParserException e) {
            throw new IllegalStateException("cannot parse " + p4info + ": " + e.getMessage(), e);
        }
        DefaultPiPipeconf.Builder builder = DefaultPiPipeconf.builder()
                .withId(id)
                .withPipelineModel(model)
                .addBehaviour(PiPipelineInterpreter.class, FlowBufInterpreter.class)
                .addBehaviour(Pipeliner.class, FlowBufPipeliner.class)
                .addExtension(P4_INFO_TEXT, p4info)
                .addExtension(BMV2_JSON, resource(dir + "/bmv2.json"));
        URL cpuPort = FlowBufPipeconfs.class.getResource(CPU_PORT_FILE);
        if (cpuPort != null) {
            builder.addExtension(CPU_PORT_TXT, cpuPort);
        }
        return builder.build();
    }

    /** Where the bundle keeps id's compiler outputs: /p4, or /p4/PROFILE. */
    private static String directory(PiPipeconfId id) {
        if (!ALL_IDS.contains(id)) {
            throw new IllegalArgumentException(id + " is not one of the FlowBuf pipeconfs " + ALL_IDS);
        }
        if (id.equals(PIPECONF_ID)) {
            return "/p4";
        }
        return "/p4/" + id.id().substring(PIPECONF_ID.id().length() + 1);
    }

    private static URL resource(String path) {
        URL url = FlowBufPipeconfs.class.getResource(path);
        if (url == null) {
            throw new IllegalStateException(path + " is not in the pipeconf bundle");
        }
        return url;
    }
}
