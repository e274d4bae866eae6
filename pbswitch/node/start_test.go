// SPDX-License-Identifier: Apache-2.0

package node

import (
	"strings"
	"testing"
)

// A node that cannot start says why and leaves nothing behind (it used to
// panic closing the nil node it was about to return).
func TestAFailedStartReturnsItsReason(t *testing.T) {
	n, err := Start(Config{CPUPort: 255, P4RTListen: "127.0.0.1:notaport"})
	if err == nil || n != nil {
		t.Fatalf("Start = %v, %v; want nil and an error", n, err)
	}
	if !strings.Contains(err.Error(), "P4Runtime listen") {
		t.Fatalf("error %q does not name the failed listen", err)
	}
}
