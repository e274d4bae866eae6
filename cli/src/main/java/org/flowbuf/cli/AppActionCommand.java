/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Completion;

/**
 * The shape the application commands share: an action, then a device (to
 * begin something) or the id of what was begun, then a port.
 */
public abstract class AppActionCommand extends FlowFilterCommand {

    @Argument(index = 0, name = "action", required = true,
            description = "what to do (see the command's description)")
    String action;

    @Argument(index = 1, name = "deviceOrId")
    @Completion(DeviceIdCompleter.class)
    String deviceOrId;

    @Argument(index = 2, name = "port")
    String port;

    /**
     * The error for an action the command does not know.
     *
     * @param known the actions it knows, for the message
     * @return the exception to throw
     */
    IllegalArgumentException unknownAction(String known) {
        return new IllegalArgumentException("action must be " + known + ", not " + action);
    }
}
