/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.tools.atomix;

import io.atomix.core.Atomix;

/**
 * One Atomix node from its configuration file (the format ONOS's
 * atomix-gen-config writes), as Atomix's agent starts one, without the
 * agent's REST server: ONOS reaches its storage through Atomix's own
 * messaging. Runs until the process is stopped.
 */
public final class AtomixNode {

    private AtomixNode() {
    }

    /**
     * Starts the node.
     *
     * @param args the configuration file
     */
    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: AtomixNode CONFIG.json");
            System.exit(2);
        }
        Atomix atomix = Atomix.builder(args[0]).build();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> atomix.stop().join()));
        atomix.start().join();
        System.out.println("Atomix node " + atomix.getMembershipService().getLocalMember().id()
                + " started");
    }
}
