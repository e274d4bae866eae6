/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.PortRange;
import org.flowbuf.api.upf.UpfFilter;
import org.flowbuf.api.upf.UpfMeter;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onlab.packet.IpAddress;
import org.onlab.packet.IpPrefix;
import org.onosproject.net.DeviceId;

import java.util.List;
import java.util.Optional;

/**
 * JSON pieces the UPF codecs share: meters, filters, port ranges,
 * addresses, device ids, and the refusal of unknown fields.
 */
final class UpfJson {

    static final String CIR = "cir";
    static final String CBURST = "cburst";
    static final String PIR = "pir";
    static final String PBURST = "pburst";
    static final String UE_ADDRESS = "ueAddress";
    static final String APP_ADDRESS = "appAddress";
    static final String IP_PROTO = "ipProto";
    static final String UE_PORTS = "uePorts";
    static final String APP_PORTS = "appPorts";
    static final String LOW = "low";
    static final String HIGH = "high";

    private UpfJson() {
    }

    /**
     * Refuses fields outside `known`.
     *
     * @param json  object
     * @param what  the object, for the message
     * @param known its fields, in the order the message lists them
     */
    static void onlyFields(ObjectNode json, String what, List<String> known) {
        json.fieldNames().forEachRemaining(name -> {
            if (!known.contains(name)) {
                throw FlowBufException.invalid("%s: unknown field \"%s\" (it has %s)", what, name,
                                               String.join(", ", known));
            }
        });
    }

    static ObjectNode encodeMeter(ObjectNode json, UpfMeter meter) {
        return json.put(CIR, meter.cir()).put(CBURST, meter.cburst()).put(PIR, meter.pir())
                .put(PBURST, meter.pburst());
    }

    static Optional<UpfMeter> decodeMeter(ObjectNode parent, String field) {
        return JsonFields.optionalObject(parent, field).map(json -> {
            onlyFields(json, field, List.of(CIR, CBURST, PIR, PBURST));
            try {
                return UpfMeter.of(JsonFields.number(json, CIR), JsonFields.number(json, CBURST),
                                   JsonFields.number(json, PIR), JsonFields.number(json, PBURST));
            } catch (FlowBufException e) {
                throw FlowBufException.invalid("%s: %s", field, e.getMessage());
            }
        });
    }

    static ObjectNode encodeFilter(ObjectNode json, UpfFilter filter) {
        filter.ueAddress().ifPresent(p -> json.put(UE_ADDRESS, p.toString()));
        filter.appAddress().ifPresent(p -> json.put(APP_ADDRESS, p.toString()));
        filter.ipProto().ifPresent(p -> json.put(IP_PROTO, p));
        if (!filter.uePort().isAny()) {
            json.putObject(UE_PORTS).put(LOW, filter.uePort().low()).put(HIGH, filter.uePort().high());
        }
        if (!filter.appPort().isAny()) {
            json.putObject(APP_PORTS).put(LOW, filter.appPort().low())
                    .put(HIGH, filter.appPort().high());
        }
        return json;
    }

    static UpfFilter decodeFilter(ObjectNode parent, String field) {
        Optional<ObjectNode> given = JsonFields.optionalObject(parent, field);
        if (given.isEmpty()) {
            return UpfFilter.builder().build();
        }
        ObjectNode json = given.get();
        onlyFields(json, field, List.of(UE_ADDRESS, APP_ADDRESS, IP_PROTO, UE_PORTS, APP_PORTS));
        UpfFilter.Builder b = UpfFilter.builder();
        JsonFields.optionalText(json, UE_ADDRESS).ifPresent(p -> b.ueAddress(prefix(UE_ADDRESS, p)));
        JsonFields.optionalText(json, APP_ADDRESS)
                .ifPresent(p -> b.appAddress(prefix(APP_ADDRESS, p)));
        JsonFields.optionalNumber(json, IP_PROTO).ifPresent(b::ipProto);
        range(json, UE_PORTS).ifPresent(b::uePort);
        range(json, APP_PORTS).ifPresent(b::appPort);
        return b.build();
    }

    private static Optional<PortRange> range(ObjectNode parent, String field) {
        return JsonFields.optionalObject(parent, field).map(json -> {
            onlyFields(json, field, List.of(LOW, HIGH));
            return PortRange.of(field, JsonFields.number(json, LOW), JsonFields.number(json, HIGH));
        });
    }

    /**
     * An IPv4 prefix like 10.250.0.0/16; the host bits must be zero.
     *
     * @param field field name
     * @param text  value
     * @return prefix
     */
    static Ip4Prefix prefix(String field, String text) {
        IpPrefix prefix = JsonFields.parse(field, text, t -> {
            if (!t.contains("/")) {
                throw new IllegalArgumentException("\"" + t + "\" is not a prefix like "
                                                           + "10.250.0.0/16");
            }
            return IpPrefix.valueOf(t);
        });
        if (!prefix.isIp4()) {
            throw FlowBufException.invalid("\"%s\": \"%s\" is not an IPv4 prefix", field, text);
        }
        if (!prefix.address().toString().equals(text.substring(0, text.indexOf('/')))) {
            throw FlowBufException.invalid("\"%s\": \"%s\" has host bits set (the prefix is %s)",
                                           field, text, prefix);
        }
        return prefix.getIp4Prefix();
    }

    /**
     * A unicast IPv4 address: first octet 1 to 223 (not 0/8, multicast, reserved or broadcast).
     *
     * @param field field name
     * @param text  value
     * @return address
     */
    static Ip4Address unicast(String field, String text) {
        IpAddress address = JsonFields.parse(field, text, IpAddress::valueOf);
        if (!address.isIp4()) {
            throw FlowBufException.invalid("\"%s\": \"%s\" is not an IPv4 address", field, text);
        }
        Ip4Address ip4 = address.getIp4Address();
        int first = ip4.toOctets()[0] & 0xff;
        // 0/8 is "this network", 224/4 multicast, 240/4 reserved and broadcast.
        if (first == 0 || first >= 224) {
            throw FlowBufException.invalid("\"%s\": %s is not a unicast address", field, text);
        }
        return ip4;
    }

    /**
     * A device id like device:s1.
     *
     * @param json  object
     * @param field field name
     * @return device id
     */
    static DeviceId deviceId(ObjectNode json, String field) {
        return JsonFields.deviceId(field, JsonFields.text(json, field));
    }
}
