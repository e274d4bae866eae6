/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.gnb.GnbBearer;
import org.flowbuf.api.gnb.GnbCell;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.InvalidFieldException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The hybrid gNodeB in the device's P4 program (include/gnb.p4), under the
 * key "gnb" of a device:
 * <pre>
 * { "upfPort": 1,
 *   "cells": [ { "id": 1, "radioPort": 2, "baasPort": 100 } ],
 *   "bearers": [ { "teid": 13631489, "cell": 1, "ueMac": "02:00:00:00:0e:01",
 *                  "uplinkTeid": 4660, "gnbAddress": "10.0.0.200",
 *                  "upfAddress": "10.0.0.100" } ] }
 * </pre>
 * Each cell has its radio port and the switch port of its BaaS buffer's
 * vport; a bearer is a UE's session by the downlink TEID the gNodeB gives
 * it, on a cell, with its uplink tunnel. A bearer's PDCP SN counter is
 * the pdcp_sn cell of its position in the list. {@link #validationError()}
 * names the first bad field.
 */
public final class GnbDeviceConfig extends Config<DeviceId> {

    /** Key of this configuration under a device. */
    public static final String CONFIG_KEY = "gnb";
    static final String UPF_PORT = "upfPort";
    static final String CELLS = "cells";
    static final String BEARERS = "bearers";
    static final String ID = "id";
    static final String RADIO_PORT = "radioPort";
    static final String BAAS_PORT = "baasPort";
    static final String TEID = "teid";
    static final String CELL = "cell";
    static final String UE_MAC = "ueMac";
    static final String UPLINK_TEID = "uplinkTeid";
    static final String GNB_ADDRESS = "gnbAddress";
    static final String UPF_ADDRESS = "upfAddress";
    /** Bearers a device holds: the cells of the pdcp_sn register. */
    public static final int MAX_BEARERS = 65536;
    private static final long MAX_PORT = 510;
    private static final long CPU_PORT = 255;
    private static final long MAX_TEID = (1L << 32) - 1;
    private static final int MAX_CELL = 65535;

    /**
     * A bearer as the device holds it: its value, its cell and its cell of
     * the pdcp_sn register (its place in the list).
     */
    public static final class Bearer {
        private final GnbBearer value;
        private final GnbCell cell;
        private final int snIndex;

        Bearer(GnbBearer value, GnbCell cell, int snIndex) {
            this.value = value;
            this.cell = cell;
            this.snIndex = snIndex;
        }

        /**
         * The bearer (TEIDs, UE MAC, tunnel addresses).
         *
         * @return bearer
         */
        public GnbBearer value() {
            return value;
        }

        /**
         * Its cell.
         *
         * @return cell
         */
        public GnbCell cell() {
            return cell;
        }

        /**
         * Its cell of the pdcp_sn register.
         *
         * @return index
         */
        public int snIndex() {
            return snIndex;
        }
    }

    /**
     * A section outside ONOS's netcfg store (the embedded host's file, a
     * bearer added through REST).
     *
     * @param deviceId its device
     * @param node     the section
     * @return the config, not yet validated
     */
    public static GnbDeviceConfig of(DeviceId deviceId, ObjectNode node) {
        GnbDeviceConfig config = new GnbDeviceConfig();
        config.init(deviceId, CONFIG_KEY, node, new ObjectMapper(), c -> { });
        return config;
    }

    /**
     * This section with a bearer added at the end of the list.
     *
     * @param bearer the bearer
     * @return a new section, not yet validated
     */
    public GnbDeviceConfig withBearer(GnbBearer bearer) {
        ObjectNode node = object.deepCopy();
        ArrayNode bearers = node.has(BEARERS) && node.get(BEARERS).isArray()
                ? (ArrayNode) node.get(BEARERS) : node.putArray(BEARERS);
        bearers.addObject().put(TEID, bearer.teid()).put(CELL, bearer.cell())
                .put(UE_MAC, bearer.ueMac().toString()).put(UPLINK_TEID, bearer.uplinkTeid())
                .put(GNB_ADDRESS, bearer.gnbAddress().toString())
                .put(UPF_ADDRESS, bearer.upfAddress().toString());
        return of(subject, node);
    }

    /**
     * This section without the bearer of a downlink TEID (those after it
     * move up one SN cell).
     *
     * @param teid the bearer's downlink TEID
     * @return a new section; this one's copy when it has no such bearer
     */
    public GnbDeviceConfig withoutBearer(long teid) {
        ObjectNode node = object.deepCopy();
        JsonNode bearers = node.path(BEARERS);
        for (int i = 0; i < bearers.size(); i++) {
            if (bearers.get(i).path(TEID).asLong() == teid) {
                ((ArrayNode) bearers).remove(i);
                break;
            }
        }
        return of(subject, node);
    }

    @Override
    public boolean isValid() {
        return validationError().isEmpty();
    }

    /**
     * The first problem of this configuration.
     *
     * @return a message naming the bad field, empty when the config is valid
     */
    public Optional<String> validationError() {
        try {
            hasOnlyFields(UPF_PORT, CELLS, BEARERS);
            readCells();
            readBearers(readCells());
        } catch (InvalidFieldException e) {
            return Optional.of(e.getMessage());
        } catch (IllegalArgumentException e) {
            return Optional.of(e.getMessage());
        }
        return Optional.empty();
    }

    /**
     * The port towards the UPF.
     *
     * @return port
     */
    public long upfPort() {
        return port(object.path(UPF_PORT), UPF_PORT);
    }

    /**
     * The cells, in order.
     *
     * @return cells
     */
    public List<GnbCell> cells() {
        return readCells();
    }

    /**
     * The bearers, in order (a bearer's SN cell is its index).
     *
     * @return bearers
     */
    public List<Bearer> bearers() {
        return readBearers(readCells());
    }

    private List<GnbCell> readCells() {
        long upf = upfPort();
        JsonNode cells = object.path(CELLS);
        if (!cells.isArray() || cells.size() == 0) {
            throw new IllegalArgumentException("cells must list at least one cell");
        }
        Set<Long> ports = new HashSet<>(Set.of(upf));
        Set<Integer> ids = new HashSet<>();
        List<GnbCell> out = new ArrayList<>();
        for (JsonNode c : cells) {
            only(c, "cell", ID, RADIO_PORT, BAAS_PORT);
            JsonNode id = c.path(ID);
            if (!id.isIntegralNumber() || id.asLong() < 1 || id.asLong() > MAX_CELL) {
                throw new IllegalArgumentException("cell id " + id + ": want 1.." + MAX_CELL);
            }
            if (!ids.add(id.asInt())) {
                throw new IllegalArgumentException("cell id " + id + " given twice");
            }
            GnbCell cell = new GnbCell(id.asInt(), port(c.path(RADIO_PORT), "cell " + id + " radioPort"),
                                       port(c.path(BAAS_PORT), "cell " + id + " baasPort"));
            for (long p : new long[]{cell.radioPort(), cell.baasPort()}) {
                if (!ports.add(p)) {
                    throw new IllegalArgumentException("cell " + id + ": port " + p
                            + " is already the UPF port or another cell's");
                }
            }
            out.add(cell);
        }
        return out;
    }

    private List<Bearer> readBearers(List<GnbCell> cells) {
        JsonNode bearers = object.path(BEARERS);
        if (bearers.isMissingNode()) {
            return List.of();
        }
        if (!bearers.isArray() || bearers.size() > MAX_BEARERS) {
            throw new IllegalArgumentException("bearers must be a list of at most " + MAX_BEARERS);
        }
        Map<Integer, GnbCell> byId = new HashMap<>();
        cells.forEach(c -> byId.put(c.id(), c));
        Set<Long> teids = new HashSet<>();
        List<Bearer> out = new ArrayList<>();
        for (JsonNode b : bearers) {
            only(b, "bearer", TEID, CELL, UE_MAC, UPLINK_TEID, GNB_ADDRESS, UPF_ADDRESS);
            long teid = teid(b.path(TEID), "bearer teid");
            String name = "bearer " + teid;
            if (!teids.add(teid)) {
                throw new IllegalArgumentException(name + " given twice");
            }
            GnbCell cell = byId.get(b.path(CELL).asInt(-1));
            if (!b.path(CELL).isIntegralNumber() || cell == null) {
                throw new IllegalArgumentException(name + ": cell " + b.path(CELL) + " is not a cell of the device");
            }
            GnbBearer value = new GnbBearer(teid, cell.id(), mac(b.path(UE_MAC), name),
                                            teid(b.path(UPLINK_TEID), name + " uplinkTeid"),
                                            address(b.path(GNB_ADDRESS), name + " gnbAddress"),
                                            address(b.path(UPF_ADDRESS), name + " upfAddress"));
            out.add(new Bearer(value, cell, out.size()));
        }
        return out;
    }

    private static void only(JsonNode node, String what, String... fields) {
        if (!node.isObject()) {
            throw new IllegalArgumentException(what + " " + node + " must be an object");
        }
        Set<String> allowed = Set.of(fields);
        node.fieldNames().forEachRemaining(f -> {
            if (!allowed.contains(f)) {
                throw new IllegalArgumentException(what + ": unknown field " + f + "; allowed: "
                                                           + String.join(", ", fields));
            }
        });
    }

    private static long port(JsonNode p, String field) {
        if (!p.isIntegralNumber() || p.asLong() < 1 || p.asLong() > MAX_PORT || p.asLong() == CPU_PORT) {
            throw new IllegalArgumentException(field + " " + p + ": want a switch port in 1.." + MAX_PORT
                                                       + ", not the CPU port 255");
        }
        return p.asLong();
    }

    private static long teid(JsonNode t, String field) {
        if (!t.isIntegralNumber() || t.asLong() < 1 || t.asLong() > MAX_TEID) {
            throw new IllegalArgumentException(field + " " + t + ": want 1.." + MAX_TEID);
        }
        return t.asLong();
    }

    private static MacAddress mac(JsonNode m, String name) {
        try {
            return MacAddress.valueOf(m.asText());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": ueMac " + m + " is not a MAC address");
        }
    }

    private static Ip4Address address(JsonNode a, String field) {
        try {
            return Ip4Address.valueOf(a.asText());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(field + " " + a + " is not an IPv4 address");
        }
    }
}
