// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"sync"
	"sync/atomic"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// Options configure a loaded program.
type Options struct {
	// CPUPort stands for the controller (CPU_PORT in the P4 source):
	// packet_out frames arrive there and packet_in frames leave there.
	CPUPort uint32
	// DigestOut receives digest lists.
	DigestOut func(pipeline.DigestList)
	// Frames allocates the frames egress deparses into when headers grow or
	// shrink, and takes back the ones it replaces (nil: the Go heap). With
	// an allocator, the program owns each packet's frame to its capacity,
	// as it may give the frame back to Put: when the headers grow or
	// shrink it moves the payload within the frame where the capacity
	// allows, instead of taking a new one. With the Go heap it never
	// writes past a frame's length.
	Frames FrameAllocator
	// GenericTables keeps every table's entries as Go objects (the
	// reference store) instead of packing exact-match tables into slabs.
	GenericTables bool
	// reference compiles without the load-time specialisations that
	// change how a value is computed (constant folding): the generic
	// semantics the differential tests hold the specialised program to.
	reference bool
	// interpret runs the controls' node graph even when generated code
	// for the program exists (the tests' and benchmarks' comparison).
	interpret bool
}

// FrameAllocator is the switch's frame pool.
type FrameAllocator interface {
	Get(n int) []byte
	Put(b []byte)
}

type heapFrames struct{}

func (heapFrames) Get(n int) []byte { return make([]byte, n) }
func (heapFrames) Put([]byte)       {}

// Program is a compiled P4 program bound to its p4info and runtime
// objects. Ingress, Egress and Replicate are safe for concurrent use.
type Program struct {
	objs   *pipeline.Objects
	layout *layout
	opts   Options
	// ownsFrames: Options.Frames was given, so the deparser may use a
	// frame's capacity (outFrame).
	ownsFrames bool
	start      *parseState
	// states are the parser's states in the JSON's order.
	states []*parseState
	// genParse is the generated parser, bound with the controls.
	genParse func(*phv)
	perr     parserErrors
	verify   []*checksum
	update   []*checksum
	ingress  node
	egress   node
	// genIngress and genEgress are the controls' generated code when
	// Load found code for this JSON (generated.go), nil otherwise.
	genIngress, genEgress func(*phv)
	// genDeparse is the generated deparser, bound with the controls.
	genDeparse func(*phv, []byte) []byte
	emit       []emitHeader
	// emitFixed: the deparser emits at most 64 headers, none varbit
	// (deparseFixed applies).
	emitFixed bool
	std       stdFields
	// condFlows are the if-conditions lowered into leaf nodes, kept for
	// the test that holds each to its expression's closure.
	condFlows []*condFlow
	// actions are the compiled actions in the JSON's order (the order
	// generated actions are bound in).
	actions []*action
	// counterRefs and meterRefs are the indirect counter and meter arrays
	// generated count and execute_meter code names by index (in the order
	// the compiler first met them: the code's hash covers the index and
	// the array's name).
	counterRefs []*pipeline.CounterArray
	meterRefs   []*pipeline.MeterArray

	fieldLists map[int][]*lvalue
	learn      map[int]*learnBinding
	packetIn   *ctrlHeader
	packetOut  *ctrlHeader

	pool           sync.Pool
	maxKey         int
	paramWords     int
	assertFailures atomic.Uint64
}

// emitHeader is one header of the deparser's order: its bytes in phv.hdr.
type emitHeader struct {
	hdr, off, bytes int
	vl              *vlHeader // a header with a varbit field: its fixed bytes are bytes
}

// Objects are the program's tables and externs, for the P4Runtime server.
func (p *Program) Objects() *pipeline.Objects { return p.objs }

// CPUPort is the port that stands for the controller.
func (p *Program) CPUPort() uint32 { return p.opts.CPUPort }

// AssertFailures counts packets dropped by a failed assert() or assume().
func (p *Program) AssertFailures() uint64 { return p.assertFailures.Load() }

// Info is the p4info the program is bound to.
func (p *Program) Info() *p4info.P4Info { return p.objs.Info }

func (p *Program) getPHV() *phv {
	s := p.pool.Get().(*phv)
	s.reset()
	return s
}
