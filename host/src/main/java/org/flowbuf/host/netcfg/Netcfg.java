/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.netcfg;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.codec.HeavyHitterSettingsCodec;
import org.flowbuf.api.codec.HybridSettingsCodec;
import org.flowbuf.api.codec.UpfQosPolicyCodec;
import org.flowbuf.api.upf.HeavyHitterSettings;
import org.flowbuf.api.upf.HybridSettings;
import org.flowbuf.api.upf.UpfQosPolicy;
import org.flowbuf.app.config.CcSettings;
import org.flowbuf.app.config.FbDeviceConfig;
import org.flowbuf.app.config.GnbDeviceConfig;
import org.flowbuf.app.config.FlowBufDeviceConfig;
import org.flowbuf.host.fba.FbaSetting;
import org.onlab.packet.MacAddress;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The parts of an ONOS netcfg file the embedded host uses: each device's
 * basic.managementAddress (grpc://host:port?device_id=N) and "flowbuf"
 * section, and each host's MAC and location. Errors name the offending key.
 */
public final class Netcfg {

    private final List<SwitchEntry> switches;
    private final List<HostEntry> hosts;
    private final List<LinkEntry> links;
    private final CcSettings congestion;
    private final HeavyHitterSettings heavyHitters;
    private final HybridSettings hybrid;
    private final List<UpfQosPolicy> upfQos;

    private Netcfg(List<SwitchEntry> switches, List<HostEntry> hosts, List<LinkEntry> links,
                   CcSettings congestion, HeavyHitterSettings heavyHitters, HybridSettings hybrid,
                   List<UpfQosPolicy> upfQos) {
        this.switches = List.copyOf(switches);
        this.hosts = List.copyOf(hosts);
        this.links = List.copyOf(links);
        this.congestion = congestion;
        this.heavyHitters = heavyHitters;
        this.hybrid = hybrid;
        this.upfQos = List.copyOf(upfQos);
    }

    /**
     * Reads a netcfg file.
     *
     * @param file the file
     * @return its content
     * @throws IOException              when it cannot be read or is not JSON
     * @throws IllegalArgumentException when an entry is invalid
     */
    public static Netcfg read(Path file) throws IOException {
        return parse(new ObjectMapper().readTree(Files.readString(file)));
    }

    /**
     * Parses netcfg JSON.
     *
     * @param root the JSON document
     * @return its content
     * @throws IllegalArgumentException when an entry is invalid
     */
    public static Netcfg parse(JsonNode root) {
        List<SwitchEntry> switches = new ArrayList<>();
        for (Map.Entry<String, JsonNode> device : fields(root.path("devices"))) {
            switches.add(device(device.getKey(), device.getValue()));
        }
        List<HostEntry> hosts = new ArrayList<>();
        for (Map.Entry<String, JsonNode> host : fields(root.path("hosts"))) {
            hosts.add(host(host.getKey(), host.getValue()));
        }
        List<LinkEntry> links = new ArrayList<>();
        for (Map.Entry<String, JsonNode> link : fields(root.path("links"))) {
            links.add(link(link.getKey(), link.getValue()));
        }
        JsonNode app = root.path("apps").path("org.flowbuf.app");
        return new Netcfg(switches, hosts, links, CcSettings.parse(app.path("congestion")),
                          heavyHitters(app.path("heavyHitters")), hybrid(app.path("hybrid")),
                          upfQos(app.path("upfQos")));
    }

    /** The UPF-QoS policies: an array of what POST upf/qos takes. */
    private static List<UpfQosPolicy> upfQos(JsonNode json) {
        if (json.isMissingNode()) {
            return List.of();
        }
        String where = "netcfg apps.org.flowbuf.app.upfQos";
        if (!json.isArray()) {
            throw new IllegalArgumentException(where + ": not an array of policies");
        }
        List<UpfQosPolicy> policies = new ArrayList<>();
        for (int i = 0; i < json.size(); i++) {
            if (!json.get(i).isObject()) {
                throw new IllegalArgumentException(where + "[" + i + "]: not an object");
            }
            try {
                policies.add(UpfQosPolicyCodec.parse((ObjectNode) json.get(i)));
            } catch (FlowBufException e) {
                throw new IllegalArgumentException(where + "[" + i + "]: " + e.getMessage(), e);
            }
        }
        return policies;
    }

    private static HeavyHitterSettings heavyHitters(JsonNode json) {
        if (json.isMissingNode()) {
            return HeavyHitterSettings.defaults();
        }
        String where = "netcfg apps.org.flowbuf.app.heavyHitters";
        if (!json.isObject()) {
            throw new IllegalArgumentException(where + ": not an object");
        }
        try {
            return HeavyHitterSettingsCodec.parse((ObjectNode) json);
        } catch (FlowBufException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    private static HybridSettings hybrid(JsonNode json) {
        if (json.isMissingNode()) {
            return HybridSettings.off();
        }
        String where = "netcfg apps.org.flowbuf.app.hybrid";
        if (!json.isObject()) {
            throw new IllegalArgumentException(where + ": not an object");
        }
        try {
            return HybridSettingsCodec.parse((ObjectNode) json);
        } catch (FlowBufException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    private static LinkEntry link(String key, JsonNode json) {
        // ONOS's link key: "<src connect point>-<dst connect point>".
        int dash = key.indexOf('-', key.indexOf('/'));
        ConnectPoint one;
        ConnectPoint other;
        try {
            one = ConnectPoint.deviceConnectPoint(key.substring(0, dash));
            other = ConnectPoint.deviceConnectPoint(key.substring(dash + 1));
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new IllegalArgumentException("netcfg links." + key + ": not \"device:a/1-"
                                                       + "device:b/2\"");
        }
        JsonNode cc = json.path("congestion");
        return new LinkEntry(one, other, cc.isMissingNode() ? null
                : CcSettings.idle(cc, "netcfg links." + key + ".congestion"));
    }

    /**
     * The congestion service's settings (apps."org.flowbuf.app".congestion).
     *
     * @return settings, the defaults when the netcfg has none
     */
    public CcSettings congestion() {
        return congestion;
    }

    /**
     * The heavy-hitter detector's settings (apps."org.flowbuf.app".heavyHitters:
     * enabled, rateBps, packetBytes, idleMs).
     *
     * @return settings, the defaults (off) when the netcfg has none
     */
    public HeavyHitterSettings heavyHitters() {
        return heavyHitters;
    }

    /**
     * The hybrid UPF's placement (apps."org.flowbuf.app".hybrid: fastDevice,
     * slowDevice, slowPort, dnPort, fastTableBudget, demoteIdleMs, windowMs).
     *
     * @return settings, off when the netcfg has none
     */
    public HybridSettings hybrid() {
        return hybrid;
    }

    /**
     * The UPF-QoS policies to install at start.
     *
     * @return policies
     */
    public List<UpfQosPolicy> upfQos() {
        return upfQos;
    }

    /**
     * The links between switches.
     *
     * @return links in file order
     */
    public List<LinkEntry> links() {
        return links;
    }

    /**
     * The devices.
     *
     * @return switches in file order
     */
    public List<SwitchEntry> switches() {
        return switches;
    }

    /**
     * The hosts.
     *
     * @return hosts in file order
     */
    public List<HostEntry> hosts() {
        return hosts;
    }

    /**
     * A device's FlowBuf config.
     *
     * @param deviceId device
     * @return its config, if the device has one
     */
    public Optional<FlowBufDeviceConfig> flowbuf(DeviceId deviceId) {
        return switches.stream().filter(s -> s.deviceId().equals(deviceId)).findFirst()
                .flatMap(SwitchEntry::flowbuf);
    }

    /**
     * The switches, hosts and links as the embedded page draws them:
     * {"switches": ["device:a", ...],
     * "hosts": [{"name", "mac", "ips", "deviceId", "port"}],
     * "links": [{"one": "device:a/1", "other": "device:b/2"}]}. The REST
     * API's devices are only those with buffers; a path crosses the others too.
     *
     * @return JSON text
     */
    public String topologyJson() {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        ArrayNode ids = root.putArray("switches");
        switches.forEach(sw -> ids.add(sw.deviceId().toString()));
        ArrayNode list = root.putArray("hosts");
        for (HostEntry h : hosts) {
            ObjectNode host = list.addObject().put("name", h.name()).put("mac", h.mac().toString())
                    .put("deviceId", h.location().deviceId().toString())
                    .put("port", h.location().port().toLong());
            h.ips().forEach(host.putArray("ips")::add);
        }
        ArrayNode cables = root.putArray("links");
        links.forEach(l -> cables.addObject().put("one", l.one().toString())
                .put("other", l.other().toString()));
        return root.toString();
    }

    private static SwitchEntry device(String key, JsonNode json) {
        DeviceId deviceId = DeviceId.deviceId(key);
        String address = json.path("basic").path("managementAddress").asText("");
        URI uri;
        try {
            uri = URI.create(address);
        } catch (IllegalArgumentException e) {
            throw bad(key, "basic.managementAddress \"" + address + "\" is not a URI");
        }
        if (!"grpc".equals(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 0) {
            throw bad(key, "basic.managementAddress must be grpc://host:port?device_id=N, not \""
                    + address + "\"");
        }
        long p4DeviceId = deviceIdParameter(key, uri);
        FlowBufDeviceConfig flowbuf = null;
        JsonNode section = json.get(FlowBufDeviceConfig.CONFIG_KEY);
        if (section != null) {
            if (!section.isObject()) {
                throw bad(key, "\"flowbuf\" must be an object");
            }
            flowbuf = new FlowBufDeviceConfig();
            flowbuf.init(deviceId, FlowBufDeviceConfig.CONFIG_KEY, (ObjectNode) section,
                         new ObjectMapper(), config -> { });
            Optional<String> error = flowbuf.validationError();
            if (error.isPresent()) {
                throw bad(key, "flowbuf: " + error.get());
            }
        }
        FbaSetting fba = null;
        JsonNode fbaSection = json.get("fba");
        if (fbaSection != null) {
            try {
                fba = FbaSetting.parse(fbaSection);
            } catch (IllegalArgumentException e) {
                throw bad(key, "fba: " + e.getMessage());
            }
        }
        FbDeviceConfig fb = null;
        JsonNode fbSection = json.get(FbDeviceConfig.CONFIG_KEY);
        if (fbSection != null) {
            if (!fbSection.isObject()) {
                throw bad(key, "\"fb\" must be an object");
            }
            fb = new FbDeviceConfig();
            fb.init(deviceId, FbDeviceConfig.CONFIG_KEY, (ObjectNode) fbSection,
                    new ObjectMapper(), config -> { });
            Optional<String> error = fb.validationError();
            if (error.isPresent()) {
                throw bad(key, "fb: " + error.get());
            }
        }
        GnbDeviceConfig gnb = null;
        JsonNode gnbSection = json.get(GnbDeviceConfig.CONFIG_KEY);
        if (gnbSection != null) {
            if (!gnbSection.isObject()) {
                throw bad(key, "\"gnb\" must be an object");
            }
            gnb = new GnbDeviceConfig();
            gnb.init(deviceId, GnbDeviceConfig.CONFIG_KEY, (ObjectNode) gnbSection,
                     new ObjectMapper(), config -> { });
            Optional<String> error = gnb.validationError();
            if (error.isPresent()) {
                throw bad(key, "gnb: " + error.get());
            }
        }
        return new SwitchEntry(deviceId, uri.getHost(), uri.getPort(), p4DeviceId, flowbuf, fba,
                               fb, gnb);
    }

    private static long deviceIdParameter(String key, URI uri) {
        String query = Optional.ofNullable(uri.getQuery()).orElse("");
        for (String pair : query.split("&")) {
            if (pair.startsWith("device_id=")) {
                try {
                    return Long.parseUnsignedLong(pair.substring("device_id=".length()));
                } catch (NumberFormatException e) {
                    throw bad(key, "device_id must be a number in " + uri);
                }
            }
        }
        throw bad(key, "basic.managementAddress has no ?device_id=N: " + uri);
    }

    private static HostEntry host(String key, JsonNode json) {
        MacAddress mac;
        try {
            mac = MacAddress.valueOf(key.split("/")[0]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("netcfg hosts." + key + ": not a MAC/VLAN host id");
        }
        JsonNode locations = json.path("basic").path("locations");
        if (!locations.isArray() || locations.size() == 0) {
            throw new IllegalArgumentException("netcfg hosts." + key + ": basic.locations is "
                                                       + "required");
        }
        List<String> ips = new ArrayList<>();
        json.path("basic").path("ips").forEach(ip -> ips.add(ip.asText()));
        String name = json.path("basic").path("name").asText(mac.toString());
        List<ConnectPoint> points = new ArrayList<>();
        for (JsonNode location : locations) {
            try {
                points.add(ConnectPoint.deviceConnectPoint(location.asText()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("netcfg hosts." + key + ": bad location "
                                                           + location);
            }
        }
        return new HostEntry(mac, points, name, ips);
    }

    private static Iterable<Map.Entry<String, JsonNode>> fields(JsonNode node) {
        List<Map.Entry<String, JsonNode>> entries = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
            entries.add(it.next());
        }
        return entries;
    }

    private static IllegalArgumentException bad(String device, String what) {
        return new IllegalArgumentException("netcfg devices." + device + ": " + what);
    }
}
