/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.gui;

import org.onosproject.ui.UiExtension;
import org.onosproject.ui.UiExtensionService;
import org.onosproject.ui.UiMessageHandlerFactory;
import org.onosproject.ui.UiTopoOverlayFactory;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;

import java.util.List;

/**
 * Registers the FlowBuf topology overlay with ONOS's GUI.
 */
@Component(immediate = true)
public class FlowBufUiComponent {

    /** Where the overlay's css.html/js.html and view files are in the bundle. */
    static final String RESOURCE_PATH = "gui";

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected UiExtensionService uiExtensionService;

    private final UiMessageHandlerFactory handlers =
            () -> List.of(new FlowBufTopoMessageHandler());
    private final UiTopoOverlayFactory overlays = () -> List.of(new FlowBufTopoOverlay());
    private UiExtension extension;

    @Activate
    protected void activate() {
        extension = new UiExtension.Builder(getClass().getClassLoader(), List.of())
                .resourcePath(RESOURCE_PATH)
                .messageHandlerFactory(handlers)
                .topoOverlayFactory(overlays)
                .build();
        uiExtensionService.register(extension);
    }

    @Deactivate
    protected void deactivate() {
        uiExtensionService.unregister(extension);
    }
}
