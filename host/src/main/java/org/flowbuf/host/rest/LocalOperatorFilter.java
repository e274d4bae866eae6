/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.rest;

import javax.ws.rs.container.ContainerRequestContext;
import javax.ws.rs.container.ContainerRequestFilter;
import javax.ws.rs.container.PreMatching;
import javax.ws.rs.core.SecurityContext;
import java.security.Principal;

/**
 * The embedded host has no user store: whoever reaches its socket (loopback
 * by default) is the operator. ONOS's AuthorizationFilter, which the
 * resources keep, then sees an admin, as a logged-in ONOS admin would be.
 */
@PreMatching
public class LocalOperatorFilter implements ContainerRequestFilter {

    private static final Principal OPERATOR = () -> "operator";

    @Override
    public void filter(ContainerRequestContext request) {
        boolean secure = request.getSecurityContext().isSecure();
        request.setSecurityContext(new SecurityContext() {
            @Override
            public Principal getUserPrincipal() {
                return OPERATOR;
            }

            @Override
            public boolean isUserInRole(String role) {
                return "admin".equals(role) || "viewer".equals(role);
            }

            @Override
            public boolean isSecure() {
                return secure;
            }

            @Override
            public String getAuthenticationScheme() {
                return "local";
            }
        });
    }
}
