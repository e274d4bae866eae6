/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.gui;

import org.onosproject.ui.UiExtension;
import org.onosproject.ui.UiExtensionService;
import org.onosproject.ui.UiMessageHandlerFactory;
import org.onosproject.ui.UiTopoOverlayFactory;
import org.onosproject.ui.UiView;
import org.onosproject.ui.UiViewHidden;
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

    /** Where the overlay's css.html/js.html are in the bundle. */
    static final String RESOURCE_PATH = "gui";
    /**
     * The overlay's files are app/view/flowbufTopo/* of the bundle. ONOS's GUI
     * serves a view's files only for an extension that declares the view, and
     * refuses an extension without one ("Must provide at least one view"), so
     * the overlay declares it hidden, as ONOS's overlay-only apps do.
     */
    static final String VIEW_ID = "flowbufTopo";

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected UiExtensionService uiExtensionService;

    private final UiMessageHandlerFactory handlers =
            () -> List.of(new FlowBufTopoMessageHandler());
    private final UiTopoOverlayFactory overlays = () -> List.of(new FlowBufTopoOverlay());
    private final List<UiView> views = List.of(new UiViewHidden(VIEW_ID));
    private UiExtension extension;

    @Activate
    protected void activate() {
        extension = new UiExtension.Builder(getClass().getClassLoader(), views)
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
