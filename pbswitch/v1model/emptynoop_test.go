// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"path/filepath"
	"testing"

	"github.com/flowbuf/flowbuf/pbswitch/pipeline"
)

// The generated controls skip an empty table whose default does nothing
// (Table.EmptyNoOp). A default the control plane sets at runtime (what
// P4Runtime's default-entry Modify calls, Table.SetDefault) to an action
// that does something must run from the next packet on, as in the
// reference, and setting it back to the do-nothing action restores the
// skip.
func TestEmptyTablesSkippedUntilADefaultDoesSomething(t *testing.T) {
	dir := filepath.Dir(flowbufJSON)
	spec := upfFixtureOn(loadBuild(t, dir, Options{CPUPort: cpuPort}))
	ref := upfFixtureOn(loadBuild(t, dir, Options{CPUPort: cpuPort, reference: true}))
	interp := upfFixtureOn(loadBuild(t, dir, Options{CPUPort: cpuPort, interpret: true}))
	fixtures := []*fixture{spec, ref, interp}

	// The tables the generated code skips now, and for each an action
	// that does something and may be a default.
	type change struct {
		table   string
		initial pipeline.Action
		set     pipeline.Action
	}
	var changes []change
	acts := map[uint32]*action{}
	for _, a := range spec.prog.actions {
		if a.inInfo {
			acts[a.p4id] = a
		}
	}
	for _, n := range append(walkControl(spec.prog.ingress), walkControl(spec.prog.egress)...) {
		tn, ok := n.(*tableNode)
		if !ok || !tn.t.EmptyNoOp() || tn.t.ConstDefault || len(distinctSuccessors(tn)) > 1 {
			continue
		}
		for id, as := range tn.t.Actions {
			if as.TableOnly || acts[id] == nil || acts[id].empty {
				continue
			}
			params := make([][]byte, len(as.ParamBits))
			for i, bits := range as.ParamBits {
				params[i] = make([]byte, pipeline.Width(bits))
				params[i][len(params[i])-1] = 1
			}
			changes = append(changes, change{tn.name, tn.t.EmptyDefault().Action, pipeline.Action{ID: id, Params: params}})
			break
		}
	}
	for _, c := range changes {
		t.Logf("%s: default %d", c.table, c.set.ID)
	}
	if len(changes) == 0 {
		t.Fatal("no skipped table with an action that does something")
	}
	set := func(pick func(change) pipeline.Action) {
		for _, f := range fixtures {
			for _, c := range changes {
				if err := f.table(c.table).SetDefault(pick(c)); err != nil {
					t.Fatalf("%s: %v", c.table, err)
				}
			}
		}
	}
	set(func(c change) pipeline.Action { return c.set })
	for _, c := range changes {
		if spec.table(c.table).EmptyNoOp() {
			t.Fatalf("%s: still skipped with default action %d", c.table, c.set.ID)
		}
	}
	agreeOnPackets(t, spec.prog, ref.prog, interp.prog)

	set(func(c change) pipeline.Action { return c.initial })
	for _, c := range changes {
		if !spec.table(c.table).EmptyNoOp() {
			t.Fatalf("%s: not skipped with its initial default again", c.table)
		}
	}
	agreeOnPackets(t, spec.prog, ref.prog, interp.prog)
}
