// SPDX-License-Identifier: Apache-2.0

// Package device is pbswitch as its P4Runtime server sees it: the FlowBuf
// program (flowbufprog) running on the data plane (dataplane).
package device

import (
	"fmt"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"

	"github.com/flowbuf/flowbuf/pbswitch/dataplane"
	"github.com/flowbuf/flowbuf/pbswitch/flowbufprog"
	"github.com/flowbuf/flowbuf/pbswitch/p4rt"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// Device implements p4rt.Device on a dataplane.Switch.
type Device struct{ sw *dataplane.Switch }

// New wraps sw.
func New(sw *dataplane.Switch) *Device { return &Device{sw: sw} }

// Bind builds the FlowBuf program for info.
func (d *Device) Bind(info *p4info.P4Info, digestOut func(pipeline.DigestList)) (p4rt.Program, error) {
	return flowbufprog.Bind(info, d.sw.CPUPort(), digestOut)
}

// Activate runs prog on the switch.
func (d *Device) Activate(prog p4rt.Program) {
	p, ok := prog.(*flowbufprog.Program)
	if !ok {
		panic(fmt.Sprintf("device: Activate with a %T not made by Bind", prog))
	}
	d.sw.SetProgram(p)
}

// PacketOut injects a controller frame.
func (d *Device) PacketOut(frame []byte, meta []pipeline.CtrlMeta) error {
	return d.sw.PacketOut(frame, meta)
}
