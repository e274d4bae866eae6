/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.fba;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.flowbuf.app.apps.fba.FbaTuner;
import org.flowbuf.host.PbswitchProcess;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * FBA against a real pbswitch (bin/pbswitch) with a shared buffer under DT
 * and two in-process vports: the tuner reads its admin API and sets every
 * queue's alpha; a switch moved off DT is left alone and its alphas are
 * gone; a switch that went away counts as failed rounds. Loopback only.
 */
public class FbaOnPbswitchTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private PbswitchProcess pbswitch;
    private String admin;

    @Before
    public void startPbswitch() throws Exception {
        admin = "127.0.0.1:" + PbswitchProcess.freePort();
        // Queue 7 is the high class with alpha 2, the others low with alpha 1.
        pbswitch = PbswitchProcess.start("--vport", "100", "--vport", "101",
                                         "--shared-buffer-bytes", "100000", "--buffer-class",
                                         "7=2:high", "--admin-listen", admin);
        await("the admin API", () -> {
            try {
                get("stats");
                return true;
            } catch (IOException notYet) {
                return false;
            }
        });
    }

    @After
    public void stopPbswitch() throws Exception {
        if (pbswitch != null) {
            pbswitch.close();
        }
    }

    @Test
    public void theTunerSetsEveryQueuesAlphaAndLeavesASwitchOffDtAlone() throws Exception {
        try (FbaTuner tuner = new FbaTuner("s1", new PbswitchAdminControl(admin),
                                           Duration.ofMillis(20))) {
            tuner.start();
            await("two rounds", () -> tuner.rounds() >= 2);
            // Every queue is empty: N_p is the queue alone and strict priority
            // gives it the port (gamma 1), so each alpha is its class's.
            JsonNode port100 = get("stats").path("ports").path("100").path("queues");
            assertEquals(2.0, port100.get(7).path("alpha").asDouble(), 0);
            assertEquals(1.0, port100.get(0).path("alpha").asDouble(), 0);
            assertEquals(1.0, get("stats").path("ports").path("101").path("queues").get(3)
                    .path("alpha").asDouble(), 0);
            assertEquals(0, tuner.failures());

            // Off DT: the switch clears the alphas, and the tuner sets none.
            long skipped = tuner.skipped();
            put("buffer", "{\"algorithm\": \"fb\"}");
            // A round that read the switch before the change may still
            // count; once one round has found it off DT, none that follows
            // can (one timer thread).
            await("a round off DT", () -> tuner.skipped() > skipped);
            long rounds = tuner.rounds();
            Thread.sleep(200);
            assertEquals("rounds on a switch off DT", rounds, tuner.rounds());
            assertTrue("alphas left under FB",
                       get("stats").path("ports").path("100").path("queues").get(7)
                               .path("alpha").isMissingNode());

            // Gone: rounds fail, and are counted.
            pbswitch.kill();
            await("a failed round", () -> tuner.failures() >= 1);
        }
    }

    private JsonNode get(String path) throws IOException {
        return call(HttpRequest.newBuilder(URI.create("http://" + admin + "/v1/" + path)).GET());
    }

    private void put(String path, String body) throws IOException {
        call(HttpRequest.newBuilder(URI.create("http://" + admin + "/v1/" + path))
                     .PUT(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static JsonNode call(HttpRequest.Builder request) throws IOException {
        try {
            HttpResponse<String> r = HTTP.send(request.timeout(Duration.ofSeconds(5)).build(),
                                               HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IOException(r.statusCode() + " " + r.body());
            }
            return JSON.readTree(r.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private void await(String what, BooleanSupplier done) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("no " + what + " in 30 s; pbswitch log: " + pbswitch.log());
            }
            Thread.sleep(20);
        }
    }
}
