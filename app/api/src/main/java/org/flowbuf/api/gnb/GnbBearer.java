/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.gnb;

import org.flowbuf.api.FlowBufException;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;

import java.util.Objects;

/**
 * A bearer of a gNodeB: a UE's session, named by the downlink TEID the
 * gNodeB gave it, on one of its cells, with the uplink tunnel to the UPF.
 */
public final class GnbBearer {

    /** The largest TEID (32 bits; 0 is no tunnel). */
    public static final long MAX_TEID = (1L << 32) - 1;
    /** The largest cell id. */
    public static final int MAX_CELL = 65535;

    private final long teid;
    private final int cell;
    private final MacAddress ueMac;
    private final long uplinkTeid;
    private final Ip4Address gnbAddress;
    private final Ip4Address upfAddress;

    /**
     * A bearer.
     *
     * @param teid       downlink TEID, 1..2^32-1
     * @param cell       cell id, 1..65535
     * @param ueMac      the UE's MAC on the radio side
     * @param uplinkTeid the UPF's TEID of the uplink, 1..2^32-1
     * @param gnbAddress the gNodeB's N3 address
     * @param upfAddress the UPF's N3 address
     * @throws FlowBufException INVALID when a value is out of range
     */
    public GnbBearer(long teid, long cell, MacAddress ueMac, long uplinkTeid,
                     Ip4Address gnbAddress, Ip4Address upfAddress) {
        this.teid = checkTeid("teid", teid);
        if (cell < 1 || cell > MAX_CELL) {
            throw FlowBufException.invalid("cell must be between 1 and %d, got %d", MAX_CELL, cell);
        }
        this.cell = (int) cell;
        this.ueMac = Objects.requireNonNull(ueMac);
        this.uplinkTeid = checkTeid("uplinkTeid", uplinkTeid);
        this.gnbAddress = Objects.requireNonNull(gnbAddress);
        this.upfAddress = Objects.requireNonNull(upfAddress);
    }

    private static long checkTeid(String field, long teid) {
        if (teid < 1 || teid > MAX_TEID) {
            throw FlowBufException.invalid("%s must be between 1 and %d, got %d", field, MAX_TEID,
                                           teid);
        }
        return teid;
    }

    /**
     * The downlink TEID (the bearer's name on the gNodeB).
     *
     * @return TEID
     */
    public long teid() {
        return teid;
    }

    /**
     * Its cell's id.
     *
     * @return cell id
     */
    public int cell() {
        return cell;
    }

    /**
     * The UE's MAC on the radio side.
     *
     * @return MAC
     */
    public MacAddress ueMac() {
        return ueMac;
    }

    /**
     * The UPF's TEID of the uplink.
     *
     * @return TEID
     */
    public long uplinkTeid() {
        return uplinkTeid;
    }

    /**
     * The gNodeB's N3 address (the uplink's outer source).
     *
     * @return address
     */
    public Ip4Address gnbAddress() {
        return gnbAddress;
    }

    /**
     * The UPF's N3 address (the uplink's outer destination).
     *
     * @return address
     */
    public Ip4Address upfAddress() {
        return upfAddress;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof GnbBearer)) {
            return false;
        }
        GnbBearer b = (GnbBearer) o;
        return teid == b.teid && cell == b.cell && ueMac.equals(b.ueMac)
                && uplinkTeid == b.uplinkTeid && gnbAddress.equals(b.gnbAddress)
                && upfAddress.equals(b.upfAddress);
    }

    @Override
    public int hashCode() {
        return Objects.hash(teid, cell, ueMac, uplinkTeid, gnbAddress, upfAddress);
    }

    @Override
    public String toString() {
        return "bearer " + teid + " (cell " + cell + ", UE " + ueMac + ", uplink TEID "
                + uplinkTeid + ")";
    }
}
