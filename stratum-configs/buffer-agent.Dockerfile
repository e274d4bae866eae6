# SPDX-License-Identifier: Apache-2.0
# The buffer-agent of the Docker lab (docker-compose.yml beside this file),
# built from this repository; the build context is the repository's root:
#
#   docker build -f stratum-configs/buffer-agent.Dockerfile -t flowbuf/buffer-agent:local .
#
# Image versions are tools/versions.env's (a test checks).
FROM golang:1.26.8 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY proto/gen/go proto/gen/go
COPY buffer-agent buffer-agent
# Static: the runtime image needs no C library of a given version.
RUN CGO_ENABLED=0 go build -trimpath -o /out/buffer-agent ./buffer-agent/cmd/buffer-agent

FROM debian:12-slim
COPY --from=build /out/buffer-agent /usr/local/bin/buffer-agent
# Vports on veths need CAP_NET_RAW and CAP_NET_ADMIN (compose: cap_add).
ENTRYPOINT ["/usr/local/bin/buffer-agent"]
