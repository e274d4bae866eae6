// SPDX-License-Identifier: Apache-2.0

// Package device is pbswitch as its P4Runtime server sees it: the P4
// program a controller pushes, compiled by the v1model engine from its
// bmv2 JSON (the pipeline config's p4_device_config, as on Stratum-bmv2),
// running on the data plane.
package device

import (
	"errors"
	"fmt"

	p4 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/flowbuf/flowbuf/buffer-agent/engine"
	"github.com/flowbuf/flowbuf/pbswitch/dataplane"
	"github.com/flowbuf/flowbuf/pbswitch/p4rt"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
	"github.com/flowbuf/flowbuf/pbswitch/v1model"
)

// Device implements p4rt.Device on a dataplane.Switch.
type Device struct {
	sw *dataplane.Switch
	// GenericTables: programs keep every table's entries as Go objects
	// (v1model.Options.GenericTables).
	GenericTables bool
}

// New wraps sw.
func New(sw *dataplane.Switch) *Device { return &Device{sw: sw} }

// Bind compiles the pushed program: INVALID_ARGUMENT without a device
// config or with one that does not fit its p4info, UNIMPLEMENTED naming
// the construct when it uses something the engine lacks.
func (d *Device) Bind(cfg *p4.ForwardingPipelineConfig, digestOut func(pipeline.DigestList)) (p4rt.Program, error) {
	if len(cfg.GetP4DeviceConfig()) == 0 {
		return nil, status.Error(codes.InvalidArgument,
			"the pipeline config carries no p4_device_config: pbswitch runs the bmv2 JSON that p4c-bm2-ss emits, pushed as on Stratum-bmv2")
	}
	prog, err := v1model.Load(cfg.GetP4DeviceConfig(), cfg.GetP4Info(),
		v1model.Options{CPUPort: d.sw.CPUPort(), DigestOut: digestOut, Frames: framePool{}, GenericTables: d.GenericTables})
	var unsup *v1model.UnsupportedError
	switch {
	case errors.As(err, &unsup):
		return nil, status.Error(codes.Unimplemented, err.Error())
	case err != nil:
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	return prog, nil
}

// Activate runs prog on the switch: packets already in ingress finish on
// the program they started with, the next ones take prog.
func (d *Device) Activate(prog p4rt.Program) {
	p, ok := prog.(*v1model.Program)
	if !ok {
		panic(fmt.Sprintf("device: Activate with a %T not made by Bind", prog))
	}
	d.sw.SetProgram(p)
}

// PacketOut injects a controller frame.
func (d *Device) PacketOut(frame []byte, meta []pipeline.CtrlMeta) error {
	return d.sw.PacketOut(frame, meta)
}

// framePool is the switch's frame pool (the buffer engine's slabs).
type framePool struct{}

func (framePool) Get(n int) []byte { return engine.GetFrame(n) }
func (framePool) Put(b []byte)     { engine.PutFrame(b) }
