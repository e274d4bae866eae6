// SPDX-License-Identifier: Apache-2.0

package netio

import (
	"fmt"
	"runtime"

	"github.com/vishvananda/netns"
)

// NS is the network namespace interfaces and sockets live in: a path such
// as /var/run/netns/NAME, or "" for the agent's own namespace.
type NS struct{ Path string }

// Do runs f on an OS thread switched into the namespace. Sockets and
// netlink requests made inside f belong to that namespace for good.
func (n NS) Do(f func() error) error {
	if n.Path == "" {
		return f()
	}
	target, err := netns.GetFromPath(n.Path)
	if err != nil {
		return fmt.Errorf("open netns %s: %w", n.Path, err)
	}
	defer target.Close()
	errc := make(chan error, 1)
	// A fresh goroutine whose thread is discarded afterwards (by returning
	// while still locked) keeps the namespace switch from leaking to other
	// goroutines even if switching back fails.
	go func() {
		runtime.LockOSThread()
		if err := netns.Set(target); err != nil {
			errc <- fmt.Errorf("enter netns %s: %w", n.Path, err)
			return
		}
		errc <- f()
	}()
	return <-errc
}
