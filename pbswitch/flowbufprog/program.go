// SPDX-License-Identifier: Apache-2.0

package flowbufprog

import (
	"encoding/binary"
	"fmt"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// Program is the FlowBuf program bound to one p4info. Ingress and Egress are
// safe for concurrent use (one call per packet).
type Program struct {
	objs    *pipeline.Objects
	cpuPort uint32

	vportPorts, flowSteering, routingV4, l2Exact, acl *boundTable

	packetInPort, packetInPad uint32 // metadata ids (pad 0: absent)
	packetOutPort             uint32
}

// boundTable is a pipeline table with the packet field each key field
// reads and the native body of each action id.
type boundTable struct {
	t       *pipeline.Table
	fields  []fieldKind
	actions map[uint32]actionKind
}

// Bind checks info against the program's contract and builds a Program
// with fresh, empty tables. cpuPort is the port that stands for the
// controller (CPU_PORT in the P4 source). digestOut receives digest lists
// (the program has none today; the hook keeps Objects uniform).
func Bind(info *p4info.P4Info, cpuPort uint32, digestOut func(pipeline.DigestList)) (*Program, error) {
	if problems := checkContract(info); len(problems) > 0 {
		return nil, &ContractError{Problems: problems}
	}
	objs, err := pipeline.Build(info, digestOut)
	if err != nil {
		return nil, fmt.Errorf("building the pipeline: %w", err)
	}
	p := &Program{objs: objs, cpuPort: cpuPort}
	byName := map[string]*p4info.Table{}
	for _, t := range info.GetTables() {
		byName[t.GetPreamble().GetName()] = t
	}
	actionKinds := map[uint32]actionKind{}
	for _, a := range info.GetActions() {
		actionKinds[a.GetPreamble().GetId()] = requiredActions[a.GetPreamble().GetName()].kind
	}
	bind := func(name string) *boundTable {
		ti := byName[name]
		tb := objs.Tables[ti.GetPreamble().GetId()]
		bt := &boundTable{t: tb, actions: map[uint32]actionKind{}}
		reqs := requiredTables[name].fields
		for _, f := range tb.Fields {
			for _, r := range reqs {
				if r.name == f.Name {
					bt.fields = append(bt.fields, r.reads)
				}
			}
		}
		for id := range tb.Actions {
			bt.actions[id] = actionKinds[id]
		}
		return bt
	}
	p.vportPorts, p.flowSteering = bind(TableVportPorts), bind(TableFlowSteering)
	p.routingV4, p.l2Exact, p.acl = bind(TableRoutingV4), bind(TableL2Exact), bind(TableACL)
	for _, m := range findHeader(info, HeaderPacketIn).GetMetadata() {
		switch m.GetName() {
		case "ingress_port":
			p.packetInPort = m.GetId()
		case "_pad":
			p.packetInPad = m.GetId()
		}
	}
	p.packetOutPort = findHeader(info, HeaderPacketOut).GetMetadata()[0].GetId()
	for _, m := range findHeader(info, HeaderPacketOut).GetMetadata() {
		if m.GetName() == "egress_port" {
			p.packetOutPort = m.GetId()
		}
	}
	return p, nil
}

// Objects are the program's tables and externs, for the P4Runtime server.
func (p *Program) Objects() *pipeline.Objects { return p.objs }

// CPUPort is the port that stands for the controller.
func (p *Program) CPUPort() uint32 { return p.cpuPort }

// ctx is one packet's trip through ingress.
type ctx struct {
	p         *pipeline.Packet
	h         headers
	fromVport bool
	forwarded bool
}

// Ingress runs IngressPipeImpl on pk and leaves its verdict in pk.Meta
// (EgressSpec, McastGrp, CloneSession).
func (p *Program) Ingress(pk *pipeline.Packet) {
	m := &pk.Meta
	m.EgressSpec, m.McastGrp, m.CloneSession = 0, 0, 0
	if m.IngressPort == p.cpuPort && pk.PacketOut != nil {
		m.EgressSpec = pipeline.DropPort
		for _, f := range pk.PacketOut {
			if f.ID == p.packetOutPort {
				m.EgressSpec = uint32(pipeline.Uint(f.Value))
			}
		}
		return
	}
	var c ctx
	c.p = pk
	parse(pk.Frame, &c.h)
	// Steering
	p.apply(&c, p.vportPorts)
	if c.h.ipv4 >= 0 {
		p.apply(&c, p.flowSteering)
	}
	// Forwarding
	if !c.forwarded {
		if c.h.ipv4 >= 0 && pk.Frame[c.h.ipv4+8] > 1 {
			p.apply(&c, p.routingV4)
		}
		if !c.forwarded {
			p.apply(&c, p.l2Exact)
		}
	}
	p.apply(&c, p.acl)
	if c.h.ipv4 >= 0 {
		ip := pk.Frame[c.h.ipv4:]
		binary.BigEndian.PutUint16(ip[10:], ipv4Checksum(ip))
	}
}

// Egress runs EgressPipeImpl for one copy of a packet leaving on
// pk.Meta.EgressPort; false means it is dropped. On the CPU port it fills
// pk.PacketIn.
func (p *Program) Egress(pk *pipeline.Packet) bool {
	m := &pk.Meta
	if m.McastGrp != 0 && m.EgressPort == m.IngressPort {
		return false
	}
	if m.EgressPort == p.cpuPort {
		in := m.IngressPort
		if m.InstanceType != pipeline.InstanceNormal {
			in = m.CloneIngressPort
		}
		v := make([]byte, 2)
		binary.BigEndian.PutUint16(v, uint16(in))
		pk.PacketIn = append(pk.PacketIn[:0], pipeline.CtrlMeta{ID: p.packetInPort, Value: v})
		if p.packetInPad != 0 {
			pk.PacketIn = append(pk.PacketIn, pipeline.CtrlMeta{ID: p.packetInPad, Value: []byte{0}})
		}
	}
	return true
}

func (p *Program) apply(c *ctx, bt *boundTable) {
	key := c.p.Key[:bt.t.KeyWidth()]
	for i, f := range bt.fields {
		off := bt.t.FieldOffset(i)
		c.readField(f, key[off:off+pipeline.Width(bt.t.Fields[i].Bits)])
	}
	a, e := bt.t.Lookup(key)
	if e != nil {
		e.Counter.Count(len(c.p.Frame))
	}
	p.run(c, bt.actions[a.ID], a.Params)
}

// readField writes a packet field into dst (its full width). Fields of
// invalid headers read as zero, as on bmv2.
func (c *ctx) readField(f fieldKind, dst []byte) {
	fr := c.p.Frame
	switch f {
	case fIngressPort:
		binary.BigEndian.PutUint16(dst, uint16(c.p.Meta.IngressPort))
	case fEthDst:
		copy(dst, fr[0:6])
	case fEthSrc:
		copy(dst, fr[6:12])
	case fEthType:
		copy(dst, fr[12:14])
	case fIPv4Src, fIPv4Dst:
		if c.h.ipv4 < 0 {
			clear(dst)
			return
		}
		off := c.h.ipv4 + 12
		if f == fIPv4Dst {
			off += 4
		}
		copy(dst, fr[off:off+4])
	case fIPProto:
		dst[0] = c.h.ipProto
	case fL4Src:
		binary.BigEndian.PutUint16(dst, c.h.l4Src)
	case fL4Dst:
		binary.BigEndian.PutUint16(dst, c.h.l4Dst)
	case fFromVport:
		dst[0] = 0
		if c.fromVport {
			dst[0] = 1
		}
	}
}

func (p *Program) run(c *ctx, a actionKind, params [][]byte) {
	m := &c.p.Meta
	switch a {
	case aNoAction:
	case aMarkFromVport:
		c.fromVport = true
	case aSteerToPort, aSetEgressPort:
		m.EgressSpec = uint32(pipeline.Uint(params[0]))
		c.forwarded = true
	case aSteerToMcastGroup, aSetMcastGroup:
		m.McastGrp = uint16(pipeline.Uint(params[0]))
		c.forwarded = true
	case aForwardingDrop:
		markToDrop(m)
		c.forwarded = true
	case aRoute:
		m.EgressSpec = uint32(pipeline.Uint(params[0]))
		copy(c.p.Frame[6:12], params[1])
		copy(c.p.Frame[0:6], params[2])
		c.p.Frame[c.h.ipv4+8]--
		c.forwarded = true
	case aPuntToCPU:
		m.EgressSpec = p.cpuPort
		m.McastGrp = 0
	case aCopyToCPU:
		m.CloneIngressPort = m.IngressPort
		m.CloneSession = CPUCloneSession
	case aACLDrop:
		markToDrop(m)
	}
}

// markToDrop is v1model's mark_to_drop.
func markToDrop(m *pipeline.StdMeta) {
	m.EgressSpec = pipeline.DropPort
	m.McastGrp = 0
}
