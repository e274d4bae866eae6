/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.Option;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.FlowBufIntentService;

/**
 * Withdraws an installed intent and removes its rule.
 */
@Service
@Command(scope = "onos", name = "flowbuf-intent-withdraw",
        description = "Withdraws an installed pause or resume intent")
public class IntentWithdrawCommand extends FlowBufCommand {

    @Argument(name = "intentId", required = true)
    @Completion(IntentIdCompleter.class)
    String intentId;

    @Option(name = "--owner")
    String owner = Args.DEFAULT_OWNER;

    @Override
    protected void run() {
        service(FlowBufIntentService.class).withdraw(Args.intent(intentId), owner);
        print("withdrawn %s", intentId);
    }
}
