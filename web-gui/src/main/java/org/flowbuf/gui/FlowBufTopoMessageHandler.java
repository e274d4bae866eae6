/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.gui;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.codec.JsonFields;
import org.flowbuf.api.congestion.CongestionService;
import org.flowbuf.api.congestion.LatencyCriticalFlow;
import org.flowbuf.api.upf.UpfDeviceSummary;
import org.flowbuf.api.upf.UpfService;
import org.onlab.osgi.ServiceNotFoundException;
import org.onosproject.codec.CodecContext;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.Link;
import org.onosproject.net.PortNumber;
import org.onosproject.net.host.HostService;
import org.onosproject.net.HostId;
import org.onosproject.net.link.LinkService;
import org.onosproject.ui.RequestHandler;
import org.onosproject.ui.UiMessageHandler;
import org.onosproject.ui.topo.Highlights;
import org.onosproject.ui.topo.TopoJson;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The overlay's server side: live highlights and the FlowBuf model while the
 * overlay is shown, pause/resume requests from the details panel, and the
 * latency-critical flow picked to be shown (its paths highlighted, its
 * record in the details panel).
 */
public class FlowBufTopoMessageHandler extends UiMessageHandler {

    static final String START = "flowbufStart";
    static final String STOP = "flowbufStop";
    static final String MODEL_REQUEST = "flowbufModelRequest";
    static final String PAUSE = "flowbufPause";
    static final String RESUME = "flowbufResume";
    static final String CC_SELECT = "flowbufCcSelect";
    static final String MODEL = "flowbufModel";
    static final String ERROR = "flowbufError";
    static final String HIGHLIGHTS = "showHighlights";
    /** The topology view's own event for its details panel. */
    static final String DETAILS = "showDetails";
    /** How often a shown overlay is refreshed. */
    static final long REFRESH_MS = 1000;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private ScheduledFuture<?> refresh;
    /** The latency-critical flow shown, 0 for none. */
    private volatile long shownFlow;
    /** Its switch-overs when its details were last sent (-1: to be sent). */
    private volatile long detailsSwitchOvers = -1;

    @Override
    protected Collection<RequestHandler> createRequestHandlers() {
        return List.of(new Start(), new Stop(), new ModelRequest(), new IntentRequest(PAUSE),
                       new IntentRequest(RESUME), new CcSelect());
    }

    @Override
    public void destroy() {
        timer.shutdownNow();
        super.destroy();
    }

    /** Sends the model and the highlights once. */
    void push() {
        BufferService buffers = get(BufferService.class);
        FlowBufIntentService intents = get(FlowBufIntentService.class);
        Map<DeviceId, Collection<Buffer>> byDevice = FlowBufModel.buffers(buffers);
        List<UpfDeviceSummary> upf = upfSummaries();
        Collection<LatencyCriticalFlow> flows = congestionFlows();
        connection().sendMessage(MODEL, FlowBufModel.json(getJsonCodecContext(), byDevice,
                                                          intents.getIntents(), upf, flows));
        Highlights highlights = BufferHighlights.of(byDevice, intents.getIntents(), upf,
                                                    this::hostsAt);
        Optional<LatencyCriticalFlow> shown = flows.stream()
                .filter(f -> f.id() == shownFlow).findFirst();
        if (shown.isEmpty()) {
            shownFlow = 0; // removed since it was picked
        }
        shown.ifPresent(f -> CongestionHighlights.addTo(highlights, f, this::egressLinks));
        sendMessage(TopoJson.highlightsMessage(highlights));
        shown.ifPresent(this::detailsOnChange);
    }

    /**
     * Sends the flow's details panel when it was just picked or has switched
     * over since: not on every refresh, which would take the panel from a
     * device the user selected meanwhile.
     */
    private void detailsOnChange(LatencyCriticalFlow flow) {
        if (flow.switchOverCount() != detailsSwitchOvers) {
            detailsSwitchOvers = flow.switchOverCount();
            connection().sendMessage(DETAILS, TopoJson.json(CongestionDetails.of(flow)));
        }
    }

    /** The latency-critical flows; none when the congestion service is not running. */
    private Collection<LatencyCriticalFlow> congestionFlows() {
        try {
            CongestionService congestion = get(CongestionService.class);
            return congestion == null ? List.of() : congestion.flows();
        } catch (ServiceNotFoundException e) {
            return List.of();
        }
    }

    private Collection<Link> egressLinks(ConnectPoint point) {
        return get(LinkService.class).getEgressLinks(point);
    }

    /** The UPF's sessions per device; none when the UPF service is not running. */
    private List<UpfDeviceSummary> upfSummaries() {
        try {
            UpfService upf = get(UpfService.class);
            return upf == null ? List.of() : upf.deviceSummaries();
        } catch (ServiceNotFoundException e) {
            return List.of();
        }
    }

    private Set<HostId> hostsAt(ConnectPoint point) {
        return get(HostService.class).getConnectedHosts(point).stream()
                .map(h -> h.id()).collect(Collectors.toSet());
    }

    private final class Start extends RequestHandler {
        Start() {
            super(START);
        }

        @Override
        public void process(ObjectNode payload) {
            synchronized (FlowBufTopoMessageHandler.this) {
                if (refresh == null) {
                    refresh = timer.scheduleAtFixedRate(FlowBufTopoMessageHandler.this::pushQuietly,
                                                        0, REFRESH_MS, TimeUnit.MILLISECONDS);
                }
            }
        }
    }

    private void pushQuietly() {
        try {
            push();
        } catch (RuntimeException e) {
            // A refresh that fails (a device going away) must not stop the next ones.
            connection().sendMessage(ERROR, objectNode().put("message", String.valueOf(
                    e.getMessage())));
        }
    }

    private final class Stop extends RequestHandler {
        Stop() {
            super(STOP);
        }

        @Override
        public void process(ObjectNode payload) {
            synchronized (FlowBufTopoMessageHandler.this) {
                if (refresh != null) {
                    refresh.cancel(false);
                    refresh = null;
                }
            }
        }
    }

    private final class ModelRequest extends RequestHandler {
        ModelRequest() {
            super(MODEL_REQUEST);
        }

        @Override
        public void process(ObjectNode payload) {
            push();
        }
    }

    /**
     * A latency-critical flow picked to be shown ({"id": N}), or none
     * ({} or {"id": 0}); an unknown id is refused and changes nothing.
     */
    private final class CcSelect extends RequestHandler {
        CcSelect() {
            super(CC_SELECT);
        }

        @Override
        public void process(ObjectNode payload) {
            try {
                long id = JsonFields.optionalNumber(payload, "id").orElse(0L);
                if (id != 0 && congestionFlows().stream().noneMatch(f -> f.id() == id)) {
                    throw FlowBufException.notFound("no latency-critical flow %d", id);
                }
                shownFlow = id;
                detailsSwitchOvers = -1;
                push();
            } catch (FlowBufException | IllegalArgumentException e) {
                connection().sendMessage(ERROR, objectNode().put("message", e.getMessage()));
            }
        }
    }

    /** A pause or resume asked for from the details panel. */
    private final class IntentRequest extends RequestHandler {
        IntentRequest(String type) {
            super(type);
        }

        @Override
        public void process(ObjectNode payload) {
            try {
                CodecContext context = getJsonCodecContext();
                DeviceId device = DeviceId.deviceId(JsonFields.text(payload, "deviceId"));
                PortNumber port = PortNumber.portNumber(JsonFields.number(payload, "port"));
                FlowFilter filter = context.codec(FlowFilter.class).decode(
                        JsonFields.optionalObject(payload, "filter")
                                .orElse(context.mapper().createObjectNode()), context);
                Optional<BufferId> buffer = JsonFields.optionalText(payload, "bufferId")
                        .map(BufferId::bufferId);
                FlowBufIntentService intents = get(FlowBufIntentService.class);
                if (eventType().equals(PAUSE)) {
                    intents.pause(device, port, filter, buffer, BufferService.OPERATOR);
                } else {
                    intents.resume(device, port, filter, buffer, BufferService.OPERATOR);
                }
                push();
            } catch (FlowBufException | IllegalArgumentException e) {
                connection().sendMessage(ERROR, objectNode().put("message", e.getMessage()));
            }
        }
    }
}
