/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.rest;

import com.sun.net.httpserver.HttpServer;
import org.flowbuf.app.rest.FlowBufWebApplication;
import org.flowbuf.app.rest.StandaloneServices;
import org.glassfish.jersey.jdkhttp.JdkHttpServerFactory;
import org.glassfish.jersey.server.ResourceConfig;

import java.net.InetSocketAddress;
import java.net.URI;

/**
 * Serves FlowBuf's REST API at /onos/flowbuf, the path ONOS serves it at, and
 * the page at /ui/, on the JDK's HTTP server.
 */
public final class RestServer implements AutoCloseable {

    /** Where ONOS mounts the FlowBuf web application. */
    public static final String CONTEXT = "/onos/flowbuf/";

    /** Unread request body the server reads and drops after answering (64 MiB). */
    static final long DRAIN_BYTES = 64L << 20;

    private final HttpServer server;

    private RestServer(HttpServer server) {
        this.server = server;
    }

    /**
     * Starts serving.
     *
     * @param listen       address to bind
     * @param services     the services the resources use (installed here)
     * @param topologyJson hosts for the page (see Netcfg#topologyJson)
     * @return the running server
     */
    public static RestServer start(InetSocketAddress listen, StandaloneServices services,
                                   String topologyJson) {
        // The JDK server writes headers and body apart; with Nagle on, a
        // keep-alive client waits out its 40 ms delayed ACK on every call.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        // A body over RequestSizeFilter's bound is answered 413 unread; the
        // JDK server then drains what is left of it before it reuses or
        // closes the connection, but only 64 KiB by default: a client still
        // sending a 10 MiB body would see its connection reset instead of
        // the 413. Beyond DRAIN_BYTES it is reset all the same.
        System.setProperty("sun.net.httpserver.drainAmount", Long.toString(DRAIN_BYTES));
        services.install();
        ResourceConfig app = ResourceConfig.forApplication(new FlowBufWebApplication())
                .register(LocalOperatorFilter.class);
        URI base = URI.create("http://" + listen.getHostString() + ":" + listen.getPort() + CONTEXT);
        HttpServer server = JdkHttpServerFactory.createHttpServer(base, app);
        server.createContext(PageHandler.CONTEXT, new PageHandler(topologyJson));
        server.createContext("/", exchange -> {
            // The root is the page.
            exchange.getResponseHeaders().set("Location", PageHandler.CONTEXT);
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
        });
        return new RestServer(server);
    }

    /**
     * The bound port (useful when started on port 0).
     *
     * @return TCP port
     */
    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
