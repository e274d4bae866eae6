// SPDX-License-Identifier: Apache-2.0

package server

import (
	"context"
	"log/slog"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/status"
)

// LogCalls logs every unary call: failures at info level (they are the
// caller's bad input, or an agent problem when the code is INTERNAL),
// successes at debug level.
func LogCalls(log *slog.Logger) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
		start := time.Now()
		resp, err := next(ctx, req)
		level := slog.LevelDebug
		if err != nil {
			level = slog.LevelInfo
		}
		log.Log(ctx, level, "call", "method", info.FullMethod, "code", status.Code(err).String(),
			"took", time.Since(start), "err", errString(err))
		return resp, err
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return status.Convert(err).Message()
}
