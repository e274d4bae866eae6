/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.fba;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.app.apps.fba.FbaTuner;

import java.util.concurrent.CountDownLatch;

/**
 * FBA alone against one pbswitch, without the rest of the host:
 * {@code java -cp flowbuf-host.jar org.flowbuf.host.fba.FbaMain ADMIN_ADDRESS [PERIOD_MS]}.
 * Runs until SIGTERM; prints the rounds and failures it counted when it stops.
 */
public final class FbaMain {

    private FbaMain() {
    }

    /**
     * Runs FBA.
     *
     * @param args the admin API's host:port, and the period in ms (default 1000)
     * @throws InterruptedException when interrupted while running
     */
    public static void main(String[] args) throws InterruptedException {
        FbaSetting setting;
        try {
            if (args.length < 1 || args.length > 2) {
                throw new IllegalArgumentException("usage: FbaMain ADMIN_HOST:PORT [PERIOD_MS]");
            }
            // The same checks as the netcfg section's.
            ObjectNode section = new ObjectMapper().createObjectNode()
                    .put(FbaSetting.ADMIN_ADDRESS, args[0]);
            if (args.length == 2) {
                section.put(FbaSetting.PERIOD_MS, Long.parseLong(args[1]));
            }
            setting = FbaSetting.parse(section);
        } catch (IllegalArgumentException e) {
            System.err.println("fba: " + e.getMessage());
            System.exit(2);
            return;
        }
        FbaTuner tuner = new FbaTuner(setting.adminAddress(),
                                      new PbswitchAdminControl(setting.adminAddress()),
                                      setting.period());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            tuner.close();
            System.out.println("fba: " + tuner.rounds() + " rounds, " + tuner.failures()
                                       + " failed");
            stopped.countDown();
        }));
        tuner.start();
        System.out.println("fba: every " + setting.period().toMillis() + " ms on "
                                   + setting.adminAddress());
        stopped.await();
    }
}
