// SPDX-License-Identifier: Apache-2.0

package main

import (
	"github.com/flowbuf/flowbuf/pbswitch/ctl"
)

func (b *bench) sessions(pl ctl.Pipeline) error { return nil }
