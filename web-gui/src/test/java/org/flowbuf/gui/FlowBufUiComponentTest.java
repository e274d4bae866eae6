/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.gui;

import org.junit.Test;
import org.onosproject.ui.UiExtension;
import org.onosproject.ui.UiExtensionService;
import org.onosproject.ui.UiView;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;

/**
 * The extension FlowBufUiComponent registers is one ONOS 2.7's GUI takes and
 * serves: it declares the overlay's view (ONOS refuses an extension without
 * one) and its css/js snippets and view files are found where ONOS looks.
 */
public class FlowBufUiComponentTest {

    @Test
    public void registersAnExtensionWhoseOverlayFilesOnosServes() throws IOException {
        List<UiExtension> registered = new ArrayList<>();
        FlowBufUiComponent component = new FlowBufUiComponent();
        component.uiExtensionService = (UiExtensionService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{UiExtensionService.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("register")) {
                        registered.add((UiExtension) args[0]);
                    }
                    return null;
                });
        component.activate();

        assertEquals(1, registered.size());
        UiExtension extension = registered.get(0);
        assertEquals(List.of(FlowBufUiComponent.VIEW_ID),
                     extension.views().stream().map(UiView::id).collect(Collectors.toList()));
        assertEquals(UiView.Category.HIDDEN, extension.views().get(0).category());
        for (InputStream found : List.of(extension.css(), extension.js(),
                                         extension.resource(FlowBufUiComponent.VIEW_ID, "flowbufTopo.js"),
                                         extension.resource(FlowBufUiComponent.VIEW_ID, "flowbufModel.js"),
                                         extension.resource(FlowBufUiComponent.VIEW_ID, "flowbufTopo.css"))) {
            assertNotNull(found);
            found.close();
        }
    }
}
