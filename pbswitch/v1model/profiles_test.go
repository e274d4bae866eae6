// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"bytes"
	"encoding/binary"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	names "github.com/flowbuf/flowbuf/pbswitch/ctl"
	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// The hybrid UPF's profiles: the same program compiled with other table
// sizes (tools/p4-build.sh).
var upfProfiles = map[string]int{ // build dir -> UPF_MAX_SESSIONS
	"../../pipeconf/p4src/build":          65536,
	"../../pipeconf/p4src/build/upf-fast": 4096,
	"../../pipeconf/p4src/build/upf-slow": 1048576,
}

// upfFrames runs one uplink and one downlink packet through f's UPF and
// returns what leaves.
func upfFrames(t *testing.T, f *fixture) [][]byte {
	t.Helper()
	inner := ipv4UDP(upfUE, upfDN, 4000, 80, 64, []byte("uplink"))
	var out [][]byte
	for _, in := range []struct {
		frame []byte
		port  uint32
	}{
		{ether(ipv4UDP(upfGNB, upfN3, 2152, 2152, 64, gtpu(upfTEIDUp, inner))), 1},
		{ether(ipv4UDP(upfDN, upfUE, 80, 4000, 64, []byte("downlink"))), 2},
	} {
		pk := f.ingress(in.frame, in.port)
		if !f.egress(pk) {
			t.Fatalf("port %d: dropped", in.port)
		}
		out = append(out, append([]byte(nil), pk.Frame...))
	}
	return out
}

// Every profile loads on the engine with its sizes, keeps its exact-match
// UPF tables in slabs (or not, with GenericTables), and forwards the UPF's
// packets byte for byte as the default build on the generic store does.
func TestUpfProfilesMatchTheReference(t *testing.T) {
	want := upfFrames(t, upfFixtureOn(loadBuild(t, "../../pipeconf/p4src/build", Options{CPUPort: cpuPort, GenericTables: true})))
	for dir, sessions := range upfProfiles {
		for _, generic := range []bool{false, true} {
			f := loadBuild(t, dir, Options{CPUPort: cpuPort, GenericTables: generic})
			for _, name := range []string{names.TableDownlinkSessions, names.TableUplinkSessions, names.TableDownlinkTerminations} {
				tb := f.table(name)
				if tb.Size != sessions || tb.UsesSlab() == generic {
					t.Fatalf("%s %s: size %d slab %v, want %d and slab %v", dir, name, tb.Size, tb.UsesSlab(), sessions, !generic)
				}
			}
			got := upfFrames(t, upfFixtureOn(f))
			for i := range want {
				if !bytes.Equal(got[i], want[i]) {
					t.Errorf("%s generic=%v packet %d:\n got %x\nwant %x", dir, generic, i, got[i], want[i])
				}
			}
		}
	}
}

// The fast profile's session table is full at 4,096 sessions.
func TestUpfFastProfileIsFullAt4096(t *testing.T) {
	f := loadBuild(t, "../../pipeconf/p4src/build/upf-fast", Options{CPUPort: cpuPort})
	tb := f.table(names.TableDownlinkSessions)
	id := f.ids[names.ActionSetDownlinkSession]
	session := func(i uint32) *pipeline.Entry {
		ue := binary.BigEndian.AppendUint32(nil, 0x0a400000+i)
		return &pipeline.Entry{Match: []pipeline.FieldMatch{exact(ue)},
			Action: pipeline.Action{ID: id, Params: [][]byte{b16(uint16(i)), b16(0), b16(1)}}}
	}
	for i := uint32(0); i < 4096; i++ {
		if err := tb.Insert(session(i)); err != nil {
			t.Fatalf("session %d: %v", i, err)
		}
	}
	if err := tb.Insert(session(4096)); status.Code(err) != codes.ResourceExhausted {
		t.Fatalf("the 4,097th session: %v, want RESOURCE_EXHAUSTED", err)
	}
}
