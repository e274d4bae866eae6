// SPDX-License-Identifier: Apache-2.0

package p4rt_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"slices"
	"syscall"
	"testing"
	"time"

	p4 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/flowbuf/flowbuf/pbswitch/ctl"
	"github.com/flowbuf/flowbuf/pbswitch/p4rt"
)

// exactRigs are the FlowBuf program on slab tables (whose exact-match
// writes take the exact writer) and on the generic store (the general
// path), pushed, with a primary client.
func exactRigs(t testing.TB) (slab, generic *rig) {
	rigs := make([]*rig, 2)
	for i, g := range []bool{false, true} {
		r := newRigStore(t, g)
		r.stream(1)
		if err := r.push(1, r.info, p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT); err != nil {
			t.Fatal(err)
		}
		rigs[i] = r
	}
	return rigs[0], rigs[1]
}

// upfWrites makes n batches of UPF updates (downlink sessions and
// terminations, tunnel peers) from seed, most of them valid, the others
// broken in one of the ways a controller can get an entry wrong, with
// keys drawn from a small range so that duplicates, modifies and deletes
// of present and absent entries all occur.
func upfWrites(r *rig, seed uint64, n int) [][]*p4.Update {
	rng := rand.New(rand.NewPCG(seed, 40))
	sessions, terms, peers := r.id(ctl.TableDownlinkSessions), r.id(ctl.TableDownlinkTerminations), r.id(ctl.TableTunnelPeers)
	setSession, termFwd, setPeer := r.id(ctl.ActionSetDownlinkSession), r.id(ctl.ActionDownlinkTermFwd), r.id(ctl.ActionSetTunnelPeer)
	entry := func() *p4.TableEntry {
		ue := []byte{10, 64, 0, byte(rng.IntN(24))}
		switch rng.IntN(3) {
		case 0:
			return &p4.TableEntry{TableId: sessions, Match: []*p4.FieldMatch{exact(1, ue)},
				Action: action(setSession, []byte{ue[3]}, []byte{0}, []byte{0, byte(rng.IntN(3))})}
		case 1:
			return &p4.TableEntry{TableId: terms, Match: []*p4.FieldMatch{exact(1, ue), exact(2, []byte{byte(rng.IntN(2))})},
				Action: action(termFwd, []byte{ue[3]}, []byte{0}, []byte{0, 0, 1, ue[3]}, []byte{9})}
		default:
			return &p4.TableEntry{TableId: peers, Match: []*p4.FieldMatch{exact(1, []byte{byte(rng.IntN(8))})},
				Action: action(setPeer, []byte{10, 0, 0, 1}, []byte{10, 0, 0, 2}, []byte{0x08, 0x68})}
		}
	}
	var batches [][]*p4.Update
	for range n {
		var ups []*p4.Update
		for range 1 + rng.IntN(12) {
			te := entry()
			breakEntry(rng, te, setSession)
			typ := []p4.Update_Type{p4.Update_INSERT, p4.Update_INSERT, p4.Update_INSERT, p4.Update_MODIFY, p4.Update_DELETE}[rng.IntN(5)]
			ups = append(ups, update(typ, te))
		}
		batches = append(batches, ups)
	}
	return batches
}

// breakEntry leaves te valid two times in three, otherwise breaks it one
// way (or gives it a cookie, which is valid).
func breakEntry(rng *rand.Rand, te *p4.TableEntry, otherAction uint32) {
	if rng.IntN(3) != 0 {
		return
	}
	a := te.GetAction().GetAction()
	m := te.Match[0].GetExact()
	switch rng.IntN(16) {
	case 0:
		m.Value = append([]byte{0, 0}, m.Value...) // leading zeros: still valid
	case 1:
		m.Value = append([]byte{1}, m.Value...) // too wide
	case 2:
		m.Value = nil // empty
	case 3:
		te.Match[0].FieldId = 9
	case 4:
		te.Match = append(te.Match, te.Match[0]) // a field twice
	case 5:
		te.Match = te.Match[:0] // an exact field omitted
	case 6:
		te.Match[0] = lpm(te.Match[0].GetFieldId(), m.Value, 8)
	case 7:
		a.Params = a.Params[:len(a.Params)-1]
	case 8:
		a.Params = append(a.Params, a.Params[0])
	case 9:
		a.Params[0].ParamId = 7
	case 10:
		a.Params[0].Value = []byte{1, 0, 0} // a 16-bit parameter too wide
	case 11:
		a.ActionId = 4242
	case 12:
		a.ActionId = otherAction // another table's action
	case 13:
		te.Priority = 10
	case 14:
		te.Action = nil
	default:
		te.ControllerMetadata = rng.Uint64() | 1
	}
}

// applyBoth writes each batch to both rigs and fails t when a Write's
// answer (its code, message and per-update errors) or what Read returns
// afterwards differs between them.
func applyBoth(t *testing.T, slab, generic *rig, batches [][]*p4.Update) {
	t.Helper()
	for i, ups := range batches {
		errSlab, errGeneric := slab.write(1, ups...), generic.write(1, ups...)
		if a, b := statusBytes(t, errSlab), statusBytes(t, errGeneric); !bytes.Equal(a, b) {
			t.Fatalf("batch %d: slab answered %v, generic %v", i, errSlab, errGeneric)
		}
	}
	for _, name := range []string{ctl.TableDownlinkSessions, ctl.TableDownlinkTerminations, ctl.TableTunnelPeers} {
		id := slab.id(name)
		a, b := readSorted(t, slab, id), readSorted(t, generic, id)
		if !slices.Equal(a, b) {
			t.Fatalf("%s: slab holds %d entries, generic %d, or they differ", name, len(a), len(b))
		}
	}
}

func statusBytes(t *testing.T, err error) []byte {
	b, e := proto.MarshalOptions{Deterministic: true}.Marshal(status.Convert(err).Proto())
	if e != nil {
		t.Fatal(e)
	}
	return b
}

func readSorted(t *testing.T, r *rig, table uint32) []string {
	var out []string
	got, err := r.readAll(&p4.ReadRequest{DeviceId: deviceID, Entities: []*p4.Entity{tableEntity(&p4.TableEntry{TableId: table})}})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range got {
		b, err := proto.MarshalOptions{Deterministic: true}.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	slices.Sort(out)
	return out
}

// TestExactWriterMatchesGeneric writes the same batches, good and bad
// updates mixed, to slab tables (the exact writer) and to the generic
// store (the general path): every answer and the final tables agree.
func TestExactWriterMatchesGeneric(t *testing.T) {
	slab, generic := exactRigs(t)
	applyBoth(t, slab, generic, upfWrites(slab, 1, 300))
}

// FuzzExactWriterMatchesGeneric is TestExactWriterMatchesGeneric for
// batches from any seed (the rigs keep their entries from input to
// input, so later inputs meet fuller tables).
func FuzzExactWriterMatchesGeneric(f *testing.F) {
	slab, generic := exactRigs(f)
	for _, seed := range []uint64{2, 3, 4, 5} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		applyBoth(t, slab, generic, upfWrites(slab, seed, 20))
	})
}

// TestExactWriterTakesValidSessions checks that the exact writer is what
// installs a valid session into a slab table, and that it leaves a bad
// entry (here a key too wide) to the general path without changing
// anything.
func TestExactWriterTakesValidSessions(t *testing.T) {
	slab, _ := exactRigs(t)
	sessions, set := slab.id(ctl.TableDownlinkSessions), slab.id(ctl.ActionSetDownlinkSession)
	good := &p4.TableEntry{TableId: sessions, Match: []*p4.FieldMatch{exact(1, []byte{10, 64, 0, 1})}, Action: action(set, []byte{1}, []byte{0}, []byte{1})}
	if handled, err := slab.srv.WritesExactly(p4.Update_INSERT, good); !handled || err != nil {
		t.Fatalf("a valid session: handled %v, %v", handled, err)
	}
	if handled, err := slab.srv.WritesExactly(p4.Update_INSERT, good); !handled || status.Code(err) != codes.AlreadyExists {
		t.Fatalf("the same session again: handled %v, %v; want ALREADY_EXISTS", handled, err)
	}
	bad := proto.Clone(good).(*p4.TableEntry)
	bad.Match[0].GetExact().Value = []byte{1, 10, 64, 0, 2}
	if handled, err := slab.srv.WritesExactly(p4.Update_INSERT, bad); handled || err != nil {
		t.Fatalf("a key too wide: handled %v, %v; want it left to the general path", handled, err)
	}
	if got := slab.read(tableEntity(&p4.TableEntry{TableId: sessions})); len(got) != 1 {
		t.Fatalf("%d sessions, want 1", len(got))
	}
}

// BenchmarkWriteSessions is the server's work for a Write of 1,000 UPF
// sessions (a downlink session and its termination each) from its wire
// form: the codec's decode and Server.Write, into slab tables and into
// the generic store; ns/op over 1,000 is the server's CPU per session
// without gRPC's transport. The tables are emptied (a new push, outside
// the timer) before they would fill.
func BenchmarkWriteSessions(b *testing.B) {
	for _, store := range []struct {
		name    string
		generic bool
	}{{"slab", false}, {"generic", true}} {
		b.Run(store.name, func(b *testing.B) {
			r := newRigStore(b, store.generic)
			r.stream(1)
			push := func() {
				if err := r.push(1, r.info, p4.SetForwardingPipelineConfigRequest_VERIFY_AND_COMMIT); err != nil {
					b.Fatal(err)
				}
			}
			push()
			const batch, capacity = 1000, 65536
			var writes [][]byte
			for lo := 0; lo+batch <= capacity; lo += batch {
				writes = append(writes, sessionsWire(b, r, lo, batch))
			}
			b.ReportAllocs()
			var cpu time.Duration // the process's CPU time while timed
			t0 := cpuTime(b)
			b.ResetTimer()
			for i := range b.N {
				k := i % len(writes)
				if k == 0 && i > 0 {
					b.StopTimer()
					cpu += cpuTime(b) - t0
					push()
					t0 = cpuTime(b)
					b.StartTimer()
				}
				req, err := p4rt.DecodeWrite(writes[k])
				if err != nil {
					b.Fatal(err)
				}
				if _, err := r.srv.Write(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
			cpu += cpuTime(b) - t0
			b.ReportMetric(float64(cpu.Microseconds())/float64(b.N*batch), "cpu-µs/session")
		})
	}
}

// cpuTime is the CPU time (user + system) the process has used: on a
// loaded machine, unlike ns/op, it does not count waiting for a core.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// sessionsWire is the encoded Write of sessions lo..lo+n-1, as upfbench
// writes them.
func sessionsWire(b *testing.B, r *rig, lo, n int) []byte {
	sessions, terms := r.id(ctl.TableDownlinkSessions), r.id(ctl.TableDownlinkTerminations)
	setSession, termFwd := r.id(ctl.ActionSetDownlinkSession), r.id(ctl.ActionDownlinkTermFwd)
	req := &p4.WriteRequest{DeviceId: deviceID, ElectionId: &p4.Uint128{Low: 1}}
	for i := lo; i < lo+n; i++ {
		ue := []byte{10, 64, byte(i >> 8), byte(i)}
		req.Updates = append(req.Updates,
			update(p4.Update_INSERT, &p4.TableEntry{TableId: sessions, Match: []*p4.FieldMatch{exact(1, ue)},
				Action: action(setSession, []byte{byte(i >> 8), byte(i)}, []byte{0}, []byte{byte(i >> 10)})}),
			update(p4.Update_INSERT, &p4.TableEntry{TableId: terms, Match: []*p4.FieldMatch{exact(1, ue), exact(2, []byte{0})},
				Action: action(termFwd, []byte{byte(i >> 8), byte(i)}, []byte{0}, []byte{0x20, 0, byte(i >> 8), byte(i)}, []byte{9})}))
	}
	raw, err := proto.Marshal(req)
	if err != nil {
		b.Fatal(err)
	}
	return raw
}
