// SPDX-License-Identifier: Apache-2.0

package ctl

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
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
	tables    []string          // table names
	actionsOf map[string]string // action name -> its @name or own name
	usedActs  []string          // actions listed in tables' actions = {...}
	counters  []string          // counter and direct_counter instances
	instances map[string]string // instance name -> control type
}

var (
	reControl  = regexp.MustCompile(`(?m)^control\s+(\w+)\s*\(`)
	reTable    = regexp.MustCompile(`(?m)^\s*table\s+(\w+)\s*\{`)
	reAction   = regexp.MustCompile(`(?m)^\s*action\s+(\w+)\s*\(`)
	reCounter  = regexp.MustCompile(`(?m)^\s*(?:direct_counter|counter|direct_meter|meter)(?:<[^>]*>)?\s*\([^;]*\)\s*(\w+)\s*;`)
	reRegister = regexp.MustCompile(`(?m)^\s*register<[^>]*>\s*\([^;]*\)\s*(\w+)\s*;`)
	reInstance = regexp.MustCompile(`(?m)^\s*([A-Z]\w*)\(\)\s+(\w+)\s*;`)
	reActList  = regexp.MustCompile(`(?s)actions\s*=\s*\{(.*?)\}`)
	reHeader   = regexp.MustCompile(`@controller_header\("(\w+)"\)`)
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
		c := &p4Control{actionsOf: map[string]string{}, instances: map[string]string{}}
		for _, t := range reTable.FindAllStringSubmatch(body, -1) {
			c.tables = append(c.tables, t[1])
		}
		for _, a := range reAction.FindAllStringSubmatch(body, -1) {
			c.actionsOf[a[1]] = a[1]
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

// sourceNames lists the fully qualified names p4c gives the objects of the
// pipeline controls, the way it writes them into the p4info.
func sourceNames(controls map[string]*p4Control, src string) map[string]bool {
	names := map[string]bool{}
	var walk func(prefix, control string)
	walk = func(prefix, control string) {
		c := controls[control]
		if c == nil {
			return
		}
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
		for inst, typ := range c.instances {
			walk(prefix+"."+inst, typ)
		}
	}
	walk("IngressPipeImpl", "IngressPipeImpl")
	walk("EgressPipeImpl", "EgressPipeImpl")
	for _, h := range reHeader.FindAllStringSubmatch(src, -1) {
		names["header "+h[1]] = true
	}
	return names
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
	if m := missing(fromInfo, fromSource); len(m) > 0 {
		t.Errorf("in p4info.txt but not in the P4 source: %v", m)
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
