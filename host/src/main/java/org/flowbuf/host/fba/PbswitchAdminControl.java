/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.fba;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.app.apps.fba.DtQueueControl;
import org.flowbuf.app.apps.fba.DtSnapshot;
import org.flowbuf.app.apps.fba.DtSnapshot.ClassSetting;
import org.flowbuf.app.apps.fba.DtSnapshot.QueueSample;
import org.flowbuf.app.apps.fba.QueueAlpha;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * pbswitch's admin API (its {@code --admin-listen}) as FBA's DT queue
 * control: {@code GET /v1/stats} is one consistent read of the buffer and
 * every queue, {@code PUT /v1/buffer/alphas} sets the alphas.
 */
public final class PbswitchAdminControl implements DtQueueControl {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final HttpClient http;

    /**
     * A control of the switch whose admin API listens at address.
     *
     * @param address host:port
     */
    public PbswitchAdminControl(String address) {
        this.base = URI.create("http://" + address + "/v1/");
        this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    }

    @Override
    public DtSnapshot read() throws IOException {
        JsonNode stats = send(HttpRequest.newBuilder(base.resolve("stats")).GET());
        JsonNode buffer = stats.path("buffer");
        List<ClassSetting> classes = new ArrayList<>();
        for (JsonNode c : buffer.path("classes")) {
            classes.add(new ClassSetting(c.path("alpha").asDouble(), "high".equals(
                    c.path("priority").asText())));
        }
        Map<Long, List<QueueSample>> ports = new HashMap<>();
        stats.path("ports").fields().forEachRemaining(port -> {
            List<QueueSample> queues = new ArrayList<>();
            for (JsonNode q : port.getValue().path("queues")) {
                queues.add(new QueueSample(q.path("bytes").asLong()));
            }
            ports.put(Long.parseLong(port.getKey()), queues);
        });
        // No shared buffer (no "buffer"): nothing for FBA to tune.
        boolean dt = "dt".equals(buffer.path("algorithm").asText());
        try {
            boolean roundRobin = "rr".equals(stats.path("scheduler").asText());
            return new DtSnapshot(dt, roundRobin, classes, dt ? ports : Map.of());
        } catch (IllegalArgumentException e) {
            throw new IOException("pbswitch at " + base + " answered an unexpected stats shape: "
                                          + e.getMessage(), e);
        }
    }

    @Override
    public void setAlphas(List<QueueAlpha> alphas) throws IOException {
        ObjectNode body = JSON.createObjectNode();
        ArrayNode list = body.putArray("alphas");
        for (QueueAlpha a : alphas) {
            list.addObject().put("port", a.port()).put("queue", a.queue()).put("alpha", a.alpha());
        }
        send(HttpRequest.newBuilder(base.resolve("buffer/alphas"))
                     .header("Content-Type", "application/json")
                     .PUT(HttpRequest.BodyPublishers.ofString(body.toString())));
    }

    private JsonNode send(HttpRequest.Builder request) throws IOException {
        HttpResponse<String> response;
        try {
            response = http.send(request.timeout(TIMEOUT).build(),
                                 HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        JsonNode answer = JSON.readTree(response.body());
        if (response.statusCode() != 200) {
            throw new IOException("pbswitch at " + base + " answered " + response.statusCode()
                                          + ": " + answer.path("error").asText(response.body()));
        }
        return answer;
    }
}
