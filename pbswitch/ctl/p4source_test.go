// SPDX-License-Identifier: Apache-2.0

package ctl

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
	"google.golang.org/protobuf/encoding/prototext"
)

// The P4 source and the committed p4info are one contract: pbswitch, the
// Java pipeconf and the controller all read the p4info, so a table, action,
// counter or controller header added to (or renamed in) the P4 source
// without regenerating the p4info must fail here, and vice versa.

const p4srcDir = "../../pipeconf/p4src"

// p4Control is what a control declares that ends up in the p4info.
type p4Control struct {
	tables    []string            // table names
	keysOf    map[string][]string // table name -> "field KIND" of each key, in order
	actionsOf map[string]string   // action name -> its @name or own name
	paramsOf  map[string][]string // action name -> its parameter names, in order
	usedActs  []string            // actions listed in tables' actions = {...}
	counters  []string            // counter and direct_counter instances
	instances map[string]string   // instance name -> control type
}

var (
	reControl  = regexp.MustCompile(`(?m)^control\s+(\w+)\s*\(`)
	reTable    = regexp.MustCompile(`(?m)^\s*table\s+(\w+)\s*\{`)
	reAction   = regexp.MustCompile(`(?m)^\s*action\s+(\w+)\s*\(([^)]*)\)`)
	reKeys     = regexp.MustCompile(`(?s)key\s*=\s*\{(.*?)\}`)
	reKey      = regexp.MustCompile(`:\s*(\w+)\s*(?:@name\("(\w+)"\))?\s*;`)
	reCounter  = regexp.MustCompile(`(?m)^\s*(?:direct_counter|counter|direct_meter|meter)(?:<[^>]*>)?\s*\([^;]*\)\s*(\w+)\s*;`)
	reRegister = regexp.MustCompile(`(?m)^\s*register<[^(]*>\s*\([^;]*\)\s*(\w+)\s*;`)
	// A register declared outside any control (unindented): one instance
	// that ingress and egress share, named without a control prefix.
	reGlobalRegister = regexp.MustCompile(`(?m)^register<[^(]*>\s*\([^;]*\)\s*(\w+)\s*;`)
	reInstance       = regexp.MustCompile(`(?m)^\s*([A-Z]\w*)\(\)\s+(\w+)\s*;`)
	reActList        = regexp.MustCompile(`(?s)actions\s*=\s*\{(.*?)\}`)
	reHeader         = regexp.MustCompile(`@controller_header\("(\w+)"\)`)
)

// block returns the text between the first '{' at or after from and its
// matching '}'.
func block(src string, from int) string {
	start := strings.IndexByte(src[from:], '{') + from
	depth := 0
	for i := start; i < len(src); i++ {
		switch src[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return src[start+1 : i]
			}
		}
	}
	return src[start:]
}

func readP4Sources(t *testing.T) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(p4srcDir, "include", "*.p4"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no P4 sources under %s: %v", p4srcDir, err)
	}
	files = append(files, filepath.Join(p4srcDir, "main.p4"))
	var all strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
		all.WriteByte('\n')
	}
	return all.String()
}

func parseControls(src string) map[string]*p4Control {
	controls := map[string]*p4Control{}
	for _, m := range reControl.FindAllStringSubmatchIndex(src, -1) {
		name := src[m[2]:m[3]]
		// The body starts after the parameter list's closing parenthesis.
		params := strings.IndexByte(src[m[1]:], ')') + m[1]
		body := block(src, params)
		c := &p4Control{actionsOf: map[string]string{}, instances: map[string]string{},
			keysOf: map[string][]string{}, paramsOf: map[string][]string{}}
		for _, t := range reTable.FindAllStringSubmatchIndex(body, -1) {
			name := body[t[2]:t[3]]
			c.tables = append(c.tables, name)
			if k := reKeys.FindStringSubmatch(block(body, t[0])); k != nil {
				for _, m := range reKey.FindAllStringSubmatch(k[1], -1) {
					c.keysOf[name] = append(c.keysOf[name], m[2]+" "+strings.ToUpper(m[1]))
				}
			}
		}
		for _, a := range reAction.FindAllStringSubmatch(body, -1) {
			c.actionsOf[a[1]] = a[1]
			c.paramsOf[a[1]] = actionParams(a[2])
		}
		for _, l := range reActList.FindAllStringSubmatch(body, -1) {
			for _, item := range strings.Split(l[1], ";") {
				fields := strings.Fields(item)
				if len(fields) > 0 {
					c.usedActs = append(c.usedActs, fields[len(fields)-1])
				}
			}
		}
		for _, r := range reCounter.FindAllStringSubmatch(body, -1) {
			c.counters = append(c.counters, r[1])
		}
		for _, r := range reRegister.FindAllStringSubmatch(body, -1) {
			c.counters = append(c.counters, r[1])
		}
		for _, i := range reInstance.FindAllStringSubmatch(body, -1) {
			c.instances[i[2]] = i[1]
		}
		controls[name] = c
	}
	return controls
}

// actionParams is the names of an action's directionless parameters, the
// ones the controller gives (in, out and inout ones are not in the p4info).
func actionParams(list string) []string {
	var names []string
	for _, p := range strings.Split(list, ",") {
		f := strings.Fields(p)
		if len(f) < 2 || f[0] == "in" || f[0] == "out" || f[0] == "inout" {
			continue
		}
		names = append(names, f[len(f)-1])
	}
	return names
}

// eachControl calls visit with every control instance of the two pipeline
// controls and the prefix p4c qualifies its objects' names with.
func eachControl(controls map[string]*p4Control, visit func(prefix string, c *p4Control)) {
	var walk func(prefix, control string)
	walk = func(prefix, control string) {
		c := controls[control]
		if c == nil {
			return
		}
		visit(prefix, c)
		for inst, typ := range c.instances {
			walk(prefix+"."+inst, typ)
		}
	}
	walk("IngressPipeImpl", "IngressPipeImpl")
	walk("EgressPipeImpl", "EgressPipeImpl")
}

// sourceNames lists the fully qualified names p4c gives the objects of the
// pipeline controls, the way it writes them into the p4info.
func sourceNames(controls map[string]*p4Control, src string) map[string]bool {
	names := map[string]bool{}
	eachControl(controls, func(prefix string, c *p4Control) {
		for _, t := range c.tables {
			names["table "+prefix+"."+t] = true
		}
		for _, a := range c.usedActs {
			if _, local := c.actionsOf[a]; local {
				names["action "+prefix+"."+a] = true
			} else {
				names["action "+a] = true // a core.p4 action such as NoAction
			}
		}
		for _, r := range c.counters {
			names["extern "+prefix+"."+r] = true
		}
	})
	for _, h := range reHeader.FindAllStringSubmatch(src, -1) {
		names["header "+h[1]] = true
	}
	for _, r := range reGlobalRegister.FindAllStringSubmatch(src, -1) {
		names["extern "+r[1]] = true
	}
	return names
}

// sourceSignatures gives each table of the pipeline controls its keys
// ("field KIND") and each action its parameter names, by the names p4c
// writes into the p4info.
func sourceSignatures(controls map[string]*p4Control) map[string][]string {
	sigs := map[string][]string{}
	eachControl(controls, func(prefix string, c *p4Control) {
		for _, t := range c.tables {
			sigs["table "+prefix+"."+t] = c.keysOf[t]
		}
		for _, a := range c.usedActs {
			if _, local := c.actionsOf[a]; local {
				sigs["action "+prefix+"."+a] = c.paramsOf[a]
			}
		}
	})
	return sigs
}

func p4infoSignatures(info *p4info.P4Info) map[string][]string {
	sigs := map[string][]string{}
	for _, t := range info.Tables {
		var keys []string
		for _, m := range t.MatchFields {
			keys = append(keys, m.Name+" "+m.GetMatchType().String())
		}
		sigs["table "+t.Preamble.Name] = keys
	}
	for _, a := range info.Actions {
		var params []string
		for _, p := range a.Params {
			params = append(params, p.Name)
		}
		sigs["action "+a.Preamble.Name] = params
	}
	return sigs
}

func loadP4Info(t testing.TB) *p4info.P4Info {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(p4srcDir, "build", "p4info.txt"))
	if err != nil {
		t.Fatal(err)
	}
	info := &p4info.P4Info{}
	if err := prototext.Unmarshal(b, info); err != nil {
		t.Fatalf("p4info.txt does not parse as p4.config.v1.P4Info: %v", err)
	}
	return info
}

func p4infoNames(info *p4info.P4Info) map[string]bool {
	names := map[string]bool{}
	for _, t := range info.Tables {
		names["table "+t.Preamble.Name] = true
	}
	for _, a := range info.Actions {
		names["action "+a.Preamble.Name] = true
	}
	for _, c := range info.Counters {
		names["extern "+c.Preamble.Name] = true
	}
	for _, c := range info.DirectCounters {
		names["extern "+c.Preamble.Name] = true
	}
	for _, m := range info.Meters {
		names["extern "+m.Preamble.Name] = true
	}
	for _, m := range info.DirectMeters {
		names["extern "+m.Preamble.Name] = true
	}
	for _, r := range info.Registers {
		names["extern "+r.Preamble.Name] = true
	}
	for _, h := range info.ControllerPacketMetadata {
		names["header "+h.Preamble.Name] = true
	}
	return names
}

func missing(want, have map[string]bool) []string {
	var out []string
	for n := range want {
		if !have[n] {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func TestP4SourceAndP4InfoAgree(t *testing.T) {
	src := readP4Sources(t)
	fromSource := sourceNames(parseControls(src), src)
	fromInfo := p4infoNames(loadP4Info(t))
	if len(fromSource) < 10 {
		t.Fatalf("found only %d objects in the P4 source; the parser here is broken: %v", len(fromSource), fromSource)
	}
	if m := missing(fromSource, fromInfo); len(m) > 0 {
		t.Errorf("in the P4 source but not in p4info.txt (recompile with tools/p4-build.sh): %v", m)
	}
	// p4c also lists some actions a control calls directly rather than
	// through a table: any action the control declares explains them.
	explained := maps.Clone(fromSource)
	eachControl(parseControls(src), func(prefix string, c *p4Control) {
		for a := range c.actionsOf {
			explained["action "+prefix+"."+a] = true
		}
	})
	if m := missing(fromInfo, explained); len(m) > 0 {
		t.Errorf("in p4info.txt but not in the P4 source: %v", m)
	}
}

// A renamed key field or action parameter, a key's match kind changed, or
// keys or parameters reordered must show too: controllers write them by
// name and in this order.
func TestP4SourceKeysAndParamsMatchP4Info(t *testing.T) {
	fromSource := sourceSignatures(parseControls(readP4Sources(t)))
	fromInfo := p4infoSignatures(loadP4Info(t))
	if len(fromSource) < 20 {
		t.Fatalf("found only %d tables and actions in the P4 source; the parser here is broken", len(fromSource))
	}
	for name, want := range fromInfo {
		got, ok := fromSource[name]
		if !ok {
			continue // TestP4SourceAndP4InfoAgree names it
		}
		if strings.Join(got, ", ") != strings.Join(want, ", ") {
			t.Errorf("%s: the P4 source has (%s), p4info.txt (%s)", name, strings.Join(got, ", "), strings.Join(want, ", "))
		}
	}
}

// The cells of the UPF's drop counter are named in defines.p4 and here.
func TestUpfDropReasonsMatchDefines(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(p4srcDir, "include", "defines.p4"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{
		"MALFORMED_GTPU": UpfDropMalformedGTPU, "UPLINK_SESSION_MISS": UpfDropUplinkSessionMiss,
		"DOWNLINK_SESSION_MISS": UpfDropDownlinkSessionMiss, "SESSION_DROP": UpfDropSessionDrop,
		"TERMINATION_MISS": UpfDropTerminationMiss, "TERMINATION_DROP": UpfDropTerminationDrop,
		"TUNNEL_PEER_MISS": UpfDropTunnelPeerMiss, "SESSION_METER": UpfDropSessionMeter,
		"APP_METER": UpfDropAppMeter, "FIREWALL": UpfDropFirewall, "GTPU_TO_UE": UpfDropGTPUToUE,
		"REASONS": UpfDropReasons,
	}
	got := map[string]int{}
	for _, m := range regexp.MustCompile(`const bit<32> UPF_DROP_(\w+) = (\d+);`).FindAllStringSubmatch(string(src), -1) {
		got[m[1]], _ = strconv.Atoi(m[2])
	}
	if len(got) != len(want) {
		t.Errorf("defines.p4 has %d UPF_DROP_ constants, names.go %d", len(got), len(want))
	}
	for name, v := range want {
		if g, ok := got[name]; !ok || g != v {
			t.Errorf("UPF_DROP_%s: defines.p4 %d (present %v), names.go %d", name, g, ok, v)
		}
	}
}

func TestP4InfoIDsFollowP4cPrefixes(t *testing.T) {
	info := loadP4Info(t)
	// The prefixes are p4runtime's P4Ids enum, which p4c follows.
	check := func(kind string, id uint32, prefix p4info.P4Ids_Prefix) {
		if id>>24 != uint32(prefix) {
			t.Errorf("%s id %#x does not carry p4c's prefix %#02x (%s)", kind, id, uint32(prefix), prefix)
		}
	}
	for _, x := range info.Tables {
		check("table "+x.Preamble.Name, x.Preamble.Id, p4info.P4Ids_TABLE)
	}
	for _, x := range info.Actions {
		check("action "+x.Preamble.Name, x.Preamble.Id, p4info.P4Ids_ACTION)
	}
	for _, x := range info.DirectCounters {
		check("direct counter "+x.Preamble.Name, x.Preamble.Id, p4info.P4Ids_DIRECT_COUNTER)
	}
	for _, x := range info.Counters {
		check("counter "+x.Preamble.Name, x.Preamble.Id, p4info.P4Ids_COUNTER)
	}
	for _, x := range info.ControllerPacketMetadata {
		check("controller header "+x.Preamble.Name, x.Preamble.Id, p4info.P4Ids_CONTROLLER_HEADER)
	}
}
