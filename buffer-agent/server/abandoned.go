// SPDX-License-Identifier: Apache-2.0

package server

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/status"
)

// RefuseAbandoned answers a unary call whose caller has already given up
// (its deadline passed or it cancelled) with that status instead of
// running it. An agent that was stopped (SIGSTOP, a long GC or swap stall)
// finds the calls that queued meanwhile on its connections when it runs
// again: the controller answered each of them 503 long ago, so applying one
// now (a buffer set to replay, say) would change what the controller told
// its user had not changed.
func RefuseAbandoned(ctx context.Context, req any, _ *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, status.FromContextError(err).Err()
	}
	return next(ctx, req)
}
