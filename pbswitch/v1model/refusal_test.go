// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
	"google.golang.org/protobuf/proto"
)

// mutate loads the FlowBuf JSON as a generic document, lets edit change it,
// and loads the result into the engine against the FlowBuf p4info (or the
// one info returns).
func mutate(t *testing.T, edit func(doc map[string]any), info func(*p4info.P4Info)) error {
	t.Helper()
	f := loadFlowBuf(t)
	raw, err := os.ReadFile(flowbufJSON)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc)
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	pi := proto.Clone(f.info).(*p4info.P4Info)
	if info != nil {
		info(pi)
	}
	_, err = Load(out, pi, Options{CPUPort: cpuPort})
	return err
}

func list(doc map[string]any, key string) []any { return doc[key].([]any) }

func obj(v any) map[string]any { return v.(map[string]any) }

// firstPrimitive is the first primitive call of the named action.
func firstPrimitive(doc map[string]any, action string) map[string]any {
	for _, a := range list(doc, "actions") {
		if obj(a)["name"] == action {
			return obj(obj(a)["primitives"].([]any)[0])
		}
	}
	panic("no action " + action)
}

// calculationFrom is the first calculation p4c made of the given source
// file (a hash() call's calculation carries no source_info).
func calculationFrom(doc map[string]any, file string) map[string]any {
	for _, c := range list(doc, "calculations") {
		if si, ok := obj(c)["source_info"].(map[string]any); ok && si["filename"] == file {
			return obj(c)
		}
	}
	panic("no calculation from " + file)
}

func wantUnsupported(t *testing.T, err error, construct, where string) {
	t.Helper()
	var u *UnsupportedError
	if !errors.As(err, &u) {
		t.Fatalf("want an UnsupportedError naming %q, got %v", construct, err)
	}
	if !strings.Contains(u.Construct, construct) || !strings.Contains(u.Where, where) {
		t.Fatalf("refusal %q at %q, want %q at %q", u.Construct, u.Where, construct, where)
	}
}

func wantInvalid(t *testing.T, err error, what string) {
	t.Helper()
	var p *ProgramError
	if !errors.As(err, &p) || !strings.Contains(err.Error(), what) {
		t.Fatalf("want a ProgramError saying %q, got %v", what, err)
	}
}

func TestLoadRefusesWhatItDoesNotImplementNamingTheSourceLine(t *testing.T) {
	err := mutate(t, func(doc map[string]any) {
		firstPrimitive(doc, "IngressPipeImpl.acl.drop")["op"] = "recirculate_with_spin"
	}, nil)
	wantUnsupported(t, err, "primitive recirculate_with_spin", "include/acl.p4:")

	err = mutate(t, func(doc map[string]any) {
		calculationFrom(doc, "include/checksums.p4")["algo"] = "sha256"
	}, nil)
	wantUnsupported(t, err, `hash algorithm "sha256"`, "include/checksums.p4:")

	err = mutate(t, func(doc map[string]any) {
		ht := obj(list(doc, "header_types")[3])
		f := ht["fields"].([]any)
		f[len(f)-1] = []any{"opts", "*"}
	}, nil)
	wantUnsupported(t, err, "variable-length field", "")

	err = mutate(t, func(doc map[string]any) {
		pl := obj(list(doc, "pipelines")[0])
		pl["action_profiles"] = []any{map[string]any{"name": "ap", "id": 0, "max_size": 8}}
		for _, x := range pl["tables"].([]any) {
			if tb := obj(x); tb["name"] == "IngressPipeImpl.forwarding.routing_v4" {
				tb["type"], tb["action_profile"] = "indirect", "ap"
			}
		}
	}, nil)
	wantInvalid(t, err, "action profile ap is not its implementation in the p4info")

	err = mutate(t, func(doc map[string]any) {
		st := obj(obj(list(doc, "parsers")[0])["parse_states"].([]any)[2])
		tr := obj(st["transitions"].([]any)[0])
		tr["type"] = "parse_vset"
	}, nil)
	wantInvalid(t, err, "is not in the p4info")

	err = mutate(t, func(doc map[string]any) {
		e := obj(obj(list(doc, "pipelines")[0])["conditionals"].([]any)[0])["expression"]
		obj(obj(e)["value"])["op"] = "frobnicate"
	}, nil)
	wantUnsupported(t, err, "expression operator frobnicate", "main.p4:")
}

func TestLoadRefusesAJSONThatDoesNotFitItsP4Info(t *testing.T) {
	// An action parameter of another width. (A table the p4info lacks is
	// hidden, as on BMv2; one the JSON lacks is not refused either: p4c's
	// p4info can list a table its bmv2 back end optimised away, as in
	// gauntlet_nested_switch-bmv2.)
	err := mutate(t, func(map[string]any) {}, func(info *p4info.P4Info) {
		for _, a := range info.Actions {
			if a.Preamble.Name == "IngressPipeImpl.forwarding.set_egress_port" {
				a.Params[0].Bitwidth = 16
			}
		}
	})
	wantInvalid(t, err, "action IngressPipeImpl.forwarding.set_egress_port parameter port is 9 bits in the JSON and 16 in the p4info")

	// A key field of another width.
	err = mutate(t, func(map[string]any) {}, func(info *p4info.P4Info) {
		for _, tb := range info.Tables {
			if tb.Preamble.Name == "IngressPipeImpl.forwarding.routing_v4" {
				tb.MatchFields[0].Bitwidth = 24
			}
		}
	})
	wantInvalid(t, err, "is 32 bits in the JSON and 24 in the p4info")

	// Not a bmv2 JSON at all, and another major version.
	if _, err := Load([]byte(`{"not": "bmv2"`), loadFlowBuf(t).info, Options{}); err == nil {
		t.Fatal("loaded malformed JSON")
	}
	err = mutate(t, func(doc map[string]any) { obj(doc["__meta__"])["version"] = []any{3, 0} }, nil)
	wantInvalid(t, err, "format version [3 0]")

	// A reference to a header that does not exist.
	err = mutate(t, func(doc map[string]any) {
		p := firstPrimitive(doc, "IngressPipeImpl.steering.mark_from_vport")
		p["parameters"].([]any)[0] = map[string]any{"type": "field", "value": []any{"nosuch", "f"}}
	}, nil)
	wantInvalid(t, err, "unknown field nosuch.f")
}
