// SPDX-License-Identifier: Apache-2.0

package flowbufprog

import (
	"fmt"
	"sort"
	"strings"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
)

// fieldKind says which packet field a match field reads.
type fieldKind int

const (
	fIngressPort fieldKind = iota
	fEthDst
	fEthSrc
	fEthType
	fIPv4Src
	fIPv4Dst
	fIPProto
	fL4Src
	fL4Dst
	fFromVport
)

type fieldReq struct {
	name  string
	bits  int32
	kind  p4info.MatchField_MatchType
	reads fieldKind
}

type tableReq struct {
	fields  []fieldReq
	actions []string
}

// requiredTables is the table part of the contract, from include/*.p4.
var requiredTables = map[string]tableReq{
	TableVportPorts: {
		fields:  []fieldReq{{"ingress_port", 9, p4info.MatchField_EXACT, fIngressPort}},
		actions: []string{ActionMarkFromVport, ActionNoAction},
	},
	TableFlowSteering: {
		fields: []fieldReq{
			{"from_vport", 1, p4info.MatchField_TERNARY, fFromVport},
			{"ingress_port", 9, p4info.MatchField_TERNARY, fIngressPort},
			{"ipv4_src", 32, p4info.MatchField_TERNARY, fIPv4Src},
			{"ipv4_dst", 32, p4info.MatchField_TERNARY, fIPv4Dst},
			{"ip_proto", 8, p4info.MatchField_TERNARY, fIPProto},
			{"l4_src_port", 16, p4info.MatchField_TERNARY, fL4Src},
			{"l4_dst_port", 16, p4info.MatchField_TERNARY, fL4Dst},
		},
		actions: []string{ActionSteerToPort, ActionSteerToMcastGroup, ActionNoAction},
	},
	TableRoutingV4: {
		fields:  []fieldReq{{"ipv4_dst", 32, p4info.MatchField_LPM, fIPv4Dst}},
		actions: []string{ActionRoute, ActionSetMcastGroup, ActionForwardingDrop, ActionNoAction},
	},
	TableL2Exact: {
		fields:  []fieldReq{{"eth_dst", 48, p4info.MatchField_EXACT, fEthDst}},
		actions: []string{ActionSetEgressPort, ActionSetMcastGroup, ActionForwardingDrop, ActionNoAction},
	},
	TableACL: {
		fields: []fieldReq{
			{"ingress_port", 9, p4info.MatchField_TERNARY, fIngressPort},
			{"eth_dst", 48, p4info.MatchField_TERNARY, fEthDst},
			{"eth_src", 48, p4info.MatchField_TERNARY, fEthSrc},
			{"eth_type", 16, p4info.MatchField_TERNARY, fEthType},
			{"ipv4_src", 32, p4info.MatchField_TERNARY, fIPv4Src},
			{"ipv4_dst", 32, p4info.MatchField_TERNARY, fIPv4Dst},
			{"ip_proto", 8, p4info.MatchField_TERNARY, fIPProto},
			{"l4_src_port", 16, p4info.MatchField_TERNARY, fL4Src},
			{"l4_dst_port", 16, p4info.MatchField_TERNARY, fL4Dst},
		},
		actions: []string{ActionPuntToCPU, ActionCopyToCPU, ActionACLDrop, ActionNoAction},
	},
}

// actionKind is the native body of an action.
type actionKind int

const (
	aNoAction actionKind = iota
	aMarkFromVport
	aSteerToPort
	aSteerToMcastGroup
	aSetEgressPort
	aSetMcastGroup
	aForwardingDrop
	aRoute
	aPuntToCPU
	aCopyToCPU
	aACLDrop
)

type actionReq struct {
	kind   actionKind
	params []paramReq
}

type paramReq struct {
	name string
	bits int32
}

var requiredActions = map[string]actionReq{
	ActionNoAction:          {aNoAction, nil},
	ActionMarkFromVport:     {aMarkFromVport, nil},
	ActionSteerToPort:       {aSteerToPort, []paramReq{{"port", 9}}},
	ActionSteerToMcastGroup: {aSteerToMcastGroup, []paramReq{{"group_id", 16}}},
	ActionSetEgressPort:     {aSetEgressPort, []paramReq{{"port", 9}}},
	ActionSetMcastGroup:     {aSetMcastGroup, []paramReq{{"group_id", 16}}},
	ActionForwardingDrop:    {aForwardingDrop, nil},
	ActionRoute:             {aRoute, []paramReq{{"port", 9}, {"src_mac", 48}, {"dst_mac", 48}}},
	ActionPuntToCPU:         {aPuntToCPU, nil},
	ActionCopyToCPU:         {aCopyToCPU, nil},
	ActionACLDrop:           {aACLDrop, nil},
}

var requiredHeaders = map[string][]paramReq{
	HeaderPacketIn:  {{"ingress_port", 9}},
	HeaderPacketOut: {{"egress_port", 9}},
}

// checkContract lists everything the program needs that info lacks or
// declares differently. Extra objects in info are not an error here:
// Bind refuses them separately, since the program could not run them.
func checkContract(info *p4info.P4Info) []string {
	var problems []string
	actionsByName := map[string]*p4info.Action{}
	for _, a := range info.GetActions() {
		actionsByName[a.GetPreamble().GetName()] = a
	}
	for name, req := range requiredActions {
		a, ok := actionsByName[name]
		if !ok {
			problems = append(problems, "missing action "+name)
			continue
		}
		problems = append(problems, checkParams("action "+name, a.GetParams(), req.params)...)
	}
	tablesByName := map[string]*p4info.Table{}
	for _, t := range info.GetTables() {
		tablesByName[t.GetPreamble().GetName()] = t
	}
	for name, req := range requiredTables {
		t, ok := tablesByName[name]
		if !ok {
			problems = append(problems, "missing table "+name)
			continue
		}
		problems = append(problems, checkTable(name, t, req, actionsByName)...)
	}
	for name, req := range requiredHeaders {
		h := findHeader(info, name)
		if h == nil {
			problems = append(problems, "missing controller header "+name)
			continue
		}
		var fields []*p4info.Action_Param
		for _, m := range h.GetMetadata() {
			fields = append(fields, &p4info.Action_Param{Id: m.GetId(), Name: m.GetName(), Bitwidth: m.GetBitwidth()})
		}
		problems = append(problems, checkParamsSubset("controller header "+name, fields, req)...)
	}
	problems = append(problems, unimplemented(info)...)
	sort.Strings(problems)
	return problems
}

// unimplemented lists objects of info the program has no behaviour for.
func unimplemented(info *p4info.P4Info) []string {
	var problems []string
	for _, t := range info.GetTables() {
		if _, ok := requiredTables[t.GetPreamble().GetName()]; !ok {
			problems = append(problems, "table "+t.GetPreamble().GetName()+" is not implemented by pbswitch")
		}
	}
	for _, a := range info.GetActions() {
		if _, ok := requiredActions[a.GetPreamble().GetName()]; !ok {
			problems = append(problems, "action "+a.GetPreamble().GetName()+" is not implemented by pbswitch")
		}
	}
	extern := func(kind, name string) {
		problems = append(problems, kind+" "+name+" is not implemented by pbswitch")
	}
	for _, x := range info.GetCounters() {
		extern("counter", x.GetPreamble().GetName())
	}
	for _, x := range info.GetMeters() {
		extern("meter", x.GetPreamble().GetName())
	}
	for _, x := range info.GetDirectMeters() {
		extern("direct meter", x.GetPreamble().GetName())
	}
	for _, x := range info.GetRegisters() {
		extern("register", x.GetPreamble().GetName())
	}
	for _, x := range info.GetDigests() {
		extern("digest", x.GetPreamble().GetName())
	}
	for _, x := range info.GetActionProfiles() {
		extern("action profile", x.GetPreamble().GetName())
	}
	return problems
}

func checkTable(name string, t *p4info.Table, req tableReq, actions map[string]*p4info.Action) []string {
	var problems []string
	byName := map[string]*p4info.MatchField{}
	for _, f := range t.GetMatchFields() {
		byName[f.GetName()] = f
	}
	if len(byName) != len(req.fields) {
		problems = append(problems, fmt.Sprintf("table %s has %d match fields, the program has %d", name, len(byName), len(req.fields)))
	}
	for _, want := range req.fields {
		f, ok := byName[want.name]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("table %s: missing match field %s", name, want.name))
		case f.GetBitwidth() != want.bits || f.GetMatchType() != want.kind:
			problems = append(problems, fmt.Sprintf("table %s field %s: %v bit<%d>, the program has %v bit<%d>",
				name, want.name, f.GetMatchType(), f.GetBitwidth(), want.kind, want.bits))
		}
	}
	refs := map[uint32]bool{}
	for _, r := range t.GetActionRefs() {
		refs[r.GetId()] = true
	}
	for _, a := range req.actions {
		if act, ok := actions[a]; ok && !refs[act.GetPreamble().GetId()] {
			problems = append(problems, fmt.Sprintf("table %s: action %s not among its actions", name, a))
		}
	}
	if len(refs) != len(req.actions) {
		problems = append(problems, fmt.Sprintf("table %s has %d actions, the program has %d", name, len(refs), len(req.actions)))
	}
	return problems
}

func checkParams(what string, got []*p4info.Action_Param, want []paramReq) []string {
	problems := checkParamsSubset(what, got, want)
	if len(got) != len(want) {
		problems = append(problems, fmt.Sprintf("%s has %d parameters, the program has %d", what, len(got), len(want)))
	}
	return problems
}

func checkParamsSubset(what string, got []*p4info.Action_Param, want []paramReq) []string {
	var problems []string
	for _, w := range want {
		p := findParam(got, w.name)
		switch {
		case p == nil:
			problems = append(problems, fmt.Sprintf("%s: missing %s", what, w.name))
		case p.GetBitwidth() != w.bits:
			problems = append(problems, fmt.Sprintf("%s: %s is bit<%d>, the program has bit<%d>", what, w.name, p.GetBitwidth(), w.bits))
		}
	}
	return problems
}

func findParam(ps []*p4info.Action_Param, name string) *p4info.Action_Param {
	for _, p := range ps {
		if p.GetName() == name {
			return p
		}
	}
	return nil
}

func findHeader(info *p4info.P4Info, name string) *p4info.ControllerPacketMetadata {
	for _, h := range info.GetControllerPacketMetadata() {
		if h.GetPreamble().GetName() == name {
			return h
		}
	}
	return nil
}

// ContractError is Bind's refusal of a p4info: every missing or different
// object, one per line.
type ContractError struct{ Problems []string }

func (e *ContractError) Error() string {
	return "p4info does not match the FlowBuf program pbswitch implements:\n  " + strings.Join(e.Problems, "\n  ")
}
