/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.rest;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Serves the embedded host's page under /ui/: its own files, the overlay's
 * shared rendering code (app/view/flowbufTopo/ of the GUI bundle) and the
 * netcfg hosts as topology.json. Only names of known shapes are served.
 */
final class PageHandler implements HttpHandler {

    static final String CONTEXT = "/ui/";
    /** The REST API's OpenAPI (swagger 2.0) document, as ONOS's build generates it. */
    static final String OPENAPI = "apidoc/swagger.json";
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*");
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8", "js", "application/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8", "json", "application/json");

    private final byte[] topology;

    PageHandler(String topologyJson) {
        this.topology = Objects.requireNonNull(topologyJson).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try {
            if (!"GET".equals(exchange.getRequestMethod())) {
                send(exchange, 405, "text/plain", "GET only".getBytes(StandardCharsets.UTF_8));
                return;
            }
            String path = exchange.getRequestURI().getPath().substring(CONTEXT.length());
            if (path.isEmpty()) {
                path = "index.html";
            }
            if (path.equals("topology.json")) {
                send(exchange, 200, TYPES.get("json"), topology);
                return;
            }
            byte[] file = resource(path);
            if (file == null) {
                send(exchange, 404, "text/plain", ("no " + path).getBytes(StandardCharsets.UTF_8));
                return;
            }
            send(exchange, 200, TYPES.getOrDefault(extension(path), "application/octet-stream"),
                 file);
        } finally {
            exchange.close();
        }
    }

    /** A page file, or a file of the overlay's view folder; null when unknown. */
    private static byte[] resource(String path) throws IOException {
        if (!SAFE.matcher(path).matches() || path.contains("..")) {
            return null;
        }
        String name = path.startsWith("app/view/flowbufTopo/") || path.equals(OPENAPI)
                ? path : "ui/" + path;
        try (InputStream in = PageHandler.class.getClassLoader().getResourceAsStream(name)) {
            return in == null ? null : in.readAllBytes();
        }
    }

    private static String extension(String path) {
        int dot = path.lastIndexOf('.');
        return dot < 0 ? "" : path.substring(dot + 1);
    }

    private static void send(HttpExchange exchange, int status, String type, byte[] body)
            throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
