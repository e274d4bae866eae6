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

import static org.onosproject.net.pi.model.PiPipeconf.ExtensionType.BMV2_JSON;
import static org.onosproject.net.pi.model.PiPipeconf.ExtensionType.CPU_PORT_TXT;
import static org.onosproject.net.pi.model.PiPipeconf.ExtensionType.P4_INFO_TEXT;

/**
 * Builds the FlowBuf pipeconf from the p4info and bmv2 JSON in the bundle.
 */
public final class FlowBufPipeconfs {

    /** The id devices name in their netcfg ("pipeconf"). */
    public static final PiPipeconfId PIPECONF_ID = new PiPipeconfId("org.flowbuf.pipeconf");
    static final String P4INFO = "/p4/p4info.txt";
    static final String BMV2_JSON_FILE = "/p4/bmv2.json";
    private static final String CPU_PORT_FILE = "/p4/cpu_port.txt";

    private FlowBufPipeconfs() {
    }

    /**
     * Builds the pipeconf.
     *
     * @return the pipeconf
     * @throws IllegalStateException when the bundle's p4info is missing or unreadable
     */
    public static PiPipeconf build() {
        URL p4info = resource(P4INFO);
        PiPipelineModel model;
        try {
            model = P4InfoParser.parse(p4info);
        } catch (P4InfoParserException e) {
            throw new IllegalStateException("cannot parse " + P4INFO + ": " + e.getMessage(), e);
        }
        DefaultPiPipeconf.Builder builder = DefaultPiPipeconf.builder()
                .withId(PIPECONF_ID)
                .withPipelineModel(model)
                .addBehaviour(PiPipelineInterpreter.class, FlowBufInterpreter.class)
                .addBehaviour(Pipeliner.class, FlowBufPipeliner.class)
                .addExtension(P4_INFO_TEXT, p4info)
                .addExtension(BMV2_JSON, resource(BMV2_JSON_FILE));
        URL cpuPort = FlowBufPipeconfs.class.getResource(CPU_PORT_FILE);
        if (cpuPort != null) {
            builder.addExtension(CPU_PORT_TXT, cpuPort);
        }
        return builder.build();
    }

    private static URL resource(String path) {
        URL url = FlowBufPipeconfs.class.getResource(path);
        if (url == null) {
            throw new IllegalStateException(path + " is not in the pipeconf bundle");
        }
        return url;
    }
}
