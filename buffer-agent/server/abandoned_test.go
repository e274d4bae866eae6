// SPDX-License-Identifier: Apache-2.0

package server

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestRefuseAbandonedRunsOnlyCallsSomeoneWaitsFor(t *testing.T) {
	expired, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	cancelled, cancel2 := context.WithCancel(context.Background())
	cancel2()
	for name, tc := range map[string]struct {
		ctx  context.Context
		code codes.Code
		ran  bool
	}{
		"waited for": {context.Background(), codes.OK, true},
		"deadline":   {expired, codes.DeadlineExceeded, false},
		"cancelled":  {cancelled, codes.Canceled, false},
	} {
		t.Run(name, func(t *testing.T) {
			ran := false
			_, err := RefuseAbandoned(tc.ctx, nil, &grpc.UnaryServerInfo{FullMethod: "/x/SetVportMode"},
				func(context.Context, any) (any, error) { ran = true; return nil, nil })
			if status.Code(err) != tc.code || ran != tc.ran {
				t.Fatalf("code %v ran %v, want %v %v", status.Code(err), ran, tc.code, tc.ran)
			}
		})
	}
}
