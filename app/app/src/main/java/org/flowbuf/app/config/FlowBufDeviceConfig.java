/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.VportId;
import org.flowbuf.app.southbound.VportSlot;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.InvalidFieldException;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Per-device FlowBuf configuration, under the key "flowbuf" of a device:
 * <pre>
 * { "agentAddress": "127.0.0.1:28000", "inProcess": false,
 *   "tls": { "caCert": "...", "clientCert": "...", "clientKey": "..." },
 *   "vports": [ { "id": "vp1", "switchPort": 10, "interface": "fbv1",
 *                 "txRateBps": 100000000 },
 *               { "id": "ue", "switchPort": 11, "tags": 10000 } ],
 *   "readyBuffers": 0 }
 * </pre>
 * "inProcess" says the switch hosts the buffers itself (pbswitch); the agent
 * address is then the switch's buffer endpoint. "readyBuffers" is how many
 * empty buffers the service keeps made ahead on vports of the device (at
 * most as many as it has vports), so a pause needing one makes no agent call.
 * "tags": N makes a vport entry N logical vports "id.1" .. "id.N" on one
 * switch port, with buffer tags 1..N: the pipeline pushes the tag on what
 * it sends into the port (steer_to_buffer) and the agent demultiplexes by
 * it, so a device holds many paused flows with few ports. Without "tags"
 * the vport has its port alone.
 * {@link #validationError()} names the first bad field, so an operator sees
 * why a device is ignored.
 */
public final class FlowBufDeviceConfig extends Config<DeviceId> {

    /** Key of this configuration under a device. */
    public static final String CONFIG_KEY = "flowbuf";
    static final String AGENT_ADDRESS = "agentAddress";
    static final String IN_PROCESS = "inProcess";
    static final String TLS = "tls";
    static final String CA_CERT = "caCert";
    static final String CLIENT_CERT = "clientCert";
    static final String CLIENT_KEY = "clientKey";
    static final String VPORTS = "vports";
    static final String VPORT_ID = "id";
    static final String SWITCH_PORT = "switchPort";
    static final String INTERFACE = "interface";
    static final String TX_RATE_BPS = "txRateBps";
    static final String READY_BUFFERS = "readyBuffers";
    static final String TAGS = "tags";
    /** Most logical vports one entry makes (the agent's default per-port limit). */
    public static final int MAX_TAGS = 65536;
    private static final long MAX_SWITCH_PORT = (1L << 32) - 1;

    /**
     * The last judgement of this config and a copy of the JSON it judged.
     * Every agent lookup validates the config (its vport ids against the id
     * syntax was the host's top self time under load); the JSON rarely
     * changes, and comparing it is cheaper than judging it again. The node
     * is mutable, so a changed node is judged again.
     */
    private volatile Judged judged;

    /** A validation result and the JSON it is about. */
    private static final class Judged {
        private final JsonNode json;
        private final Optional<String> error;

        Judged(JsonNode json, Optional<String> error) {
            this.json = json;
            this.error = error;
        }
    }

    @Override
    public boolean isValid() {
        return validationError().isEmpty();
    }

    /**
     * The first problem of this configuration, judged once per content of
     * its JSON.
     *
     * @return a message naming the bad field, empty when the config is valid
     */
    public Optional<String> validationError() {
        Judged last = judged;
        if (last != null && last.json.equals(object)) {
            return last.error;
        }
        JsonNode json = object.deepCopy();
        Optional<String> error = validate();
        judged = new Judged(json, error);
        return error;
    }

    private Optional<String> validate() {
        try {
            hasOnlyFields(AGENT_ADDRESS, IN_PROCESS, TLS, VPORTS, READY_BUFFERS);
        } catch (InvalidFieldException e) {
            return Optional.of("unknown field " + e.field()
                                       + "; allowed: agentAddress, inProcess, tls, vports, "
                                       + "readyBuffers");
        }
        Optional<String> error = checkAddress();
        if (error.isEmpty()) {
            error = checkTls();
        }
        if (error.isEmpty()) {
            error = checkVports();
        }
        if (error.isEmpty()) {
            error = checkReadyBuffers();
        }
        return error;
    }

    /**
     * The agent's address.
     *
     * @return host:port
     */
    public AgentAddress agentAddress() {
        return AgentAddress.parse(get(AGENT_ADDRESS, null));
    }

    /**
     * Whether the switch hosts the buffers in its own process.
     *
     * @return true for an in-process buffer engine
     */
    public boolean inProcess() {
        return get(IN_PROCESS, false);
    }

    /**
     * TLS material, when the agent channel uses mTLS.
     *
     * @return TLS paths, empty for plaintext
     */
    public Optional<TlsPaths> tls() {
        JsonNode tls = object.path(TLS);
        if (tls.isMissingNode() || tls.isNull()) {
            return Optional.empty();
        }
        return Optional.of(new TlsPaths(tls.path(CA_CERT).asText(),
                                        tls.path(CLIENT_CERT).asText(null),
                                        tls.path(CLIENT_KEY).asText(null)));
    }

    /**
     * The device's vport slots, in configuration order.
     *
     * @return slots
     */
    public List<VportSlot> vportSlots() {
        ImmutableList.Builder<VportSlot> slots = ImmutableList.builder();
        for (JsonNode v : object.path(VPORTS)) {
            String id = v.path(VPORT_ID).asText();
            long port = v.path(SWITCH_PORT).asLong();
            String iface = v.path(INTERFACE).asText(null);
            long rate = v.path(TX_RATE_BPS).asLong(0);
            int tags = v.path(TAGS).asInt(0);
            if (tags == 0) {
                slots.add(new VportSlot(VportId.vportId(id), port, iface, rate));
            }
            for (int tag = 1; tag <= tags; tag++) {
                slots.add(new VportSlot(VportId.vportId(id + "." + tag), port, iface, rate, tag));
            }
        }
        return slots.build();
    }

    // The number of slots vportSlots() makes, without making them (a tagged
    // entry is thousands).
    private long slotCount() {
        long n = 0;
        for (JsonNode v : object.path(VPORTS)) {
            n += Math.max(1, v.path(TAGS).asLong(0));
        }
        return n;
    }

    /**
     * How many empty buffers to keep made ahead on the device.
     *
     * @return ready buffers (0 when not set)
     */
    public int readyBuffers() {
        return object.path(READY_BUFFERS).asInt(0);
    }

    private Optional<String> checkReadyBuffers() {
        JsonNode ready = object.path(READY_BUFFERS);
        if (ready.isMissingNode()) {
            return Optional.empty();
        }
        long vports = slotCount();
        if (!ready.isIntegralNumber() || ready.asLong() < 0 || ready.asLong() > vports) {
            return Optional.of("readyBuffers must be an integer in 0.." + vports
                                       + " (the device's vports)");
        }
        return Optional.empty();
    }

    private Optional<String> checkAddress() {
        if (!object.path(AGENT_ADDRESS).isTextual()) {
            return Optional.of("agentAddress is required (host:port)");
        }
        try {
            agentAddress();
        } catch (IllegalArgumentException e) {
            return Optional.of("agentAddress: " + e.getMessage());
        }
        JsonNode inProcess = object.path(IN_PROCESS);
        if (!inProcess.isMissingNode() && !inProcess.isBoolean()) {
            return Optional.of("inProcess must be true or false");
        }
        return Optional.empty();
    }

    private Optional<String> checkTls() {
        JsonNode tls = object.path(TLS);
        if (tls.isMissingNode() || tls.isNull()) {
            return Optional.empty();
        }
        if (!tls.isObject()) {
            return Optional.of("tls must be an object");
        }
        if (!tls.path(CA_CERT).isTextual() || tls.path(CA_CERT).asText().isEmpty()) {
            return Optional.of("tls.caCert is required when tls is set");
        }
        if (tls.has(CLIENT_CERT) != tls.has(CLIENT_KEY)) {
            return Optional.of("tls.clientCert and tls.clientKey go together");
        }
        return Optional.empty();
    }

    private Optional<String> checkVports() {
        JsonNode vports = object.path(VPORTS);
        if (vports.isMissingNode()) {
            return Optional.empty();
        }
        if (!vports.isArray()) {
            return Optional.of("vports must be an array");
        }
        Set<String> ids = new HashSet<>();
        Set<Long> ports = new HashSet<>();
        List<String> errors = new ArrayList<>();
        int index = 0;
        for (JsonNode v : vports) {
            String where = "vports[" + index++ + "]";
            String id = v.path(VPORT_ID).asText("");
            long port = v.path(SWITCH_PORT).asLong(-1);
            if (id.isEmpty()) {
                errors.add(where + ".id is required");
            } else if (!isVportId(id)) {
                errors.add(where + ".id '" + id + "' is not a valid vport id");
            } else if (!ids.add(id)) {
                errors.add(where + ".id " + id + " is used twice");
            } else if (!v.path(SWITCH_PORT).isIntegralNumber() || port < 1 || port > MAX_SWITCH_PORT) {
                errors.add(where + ".switchPort must be an integer in 1.." + MAX_SWITCH_PORT);
            } else if (!ports.add(port)) {
                errors.add(where + ".switchPort " + port + " is used twice");
            } else if (v.has(TX_RATE_BPS) && (!v.path(TX_RATE_BPS).isIntegralNumber()
                    || v.path(TX_RATE_BPS).asLong() < 0)) {
                errors.add(where + ".txRateBps must be a non-negative integer (0: unpaced)");
            } else if (v.has(TAGS) && (!v.path(TAGS).isIntegralNumber()
                    || v.path(TAGS).asLong() < 1 || v.path(TAGS).asLong() > MAX_TAGS)) {
                errors.add(where + ".tags must be an integer in 1.." + MAX_TAGS
                                   + " (logical vports on its port)");
            } else if (v.has(TAGS) && !isVportId(id + "." + v.path(TAGS).asLong())) {
                errors.add(where + ".id '" + id + "' is too long for its tagged vport ids ("
                                   + id + ".1 ..)");
            }
        }
        return errors.stream().findFirst();
    }

    private static boolean isVportId(String id) {
        try {
            VportId.vportId(id);
            return true;
        } catch (FlowBufException e) {
            return false;
        }
    }
}
