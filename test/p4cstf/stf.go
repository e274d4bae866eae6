// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"strconv"
	"strings"
)

// An STF file is a list of commands, one a line, as p4c's
// tools/stf/stf_parser.py and backends/bmv2/bmv2stf.py read them.
//
//	add TABLE [PRIO] KEY:VALUE... ACTION(ARG:VAL, ...) [= ID]
//	setdefault TABLE ACTION(ARG:VAL, ...)
//	packet PORT HEX...
//	expect PORT [HEX|*|$...]
//	mirroring_add SESSION PORT, mc_mgrp_create GRP, mc_node_create RID PORT...,
//	mc_node_associate GRP NODE, register_write NAME INDEX VALUE, ...
//	wait, remove all, check_counter NAME(ID) [packets|bytes OP N], no_packet
//
// '#' starts a comment. Keywords are case-insensitive.

// Command is one STF statement.
type Command struct {
	Line int
	Kind string // the command word, lower case
	Text string // the line, without its comment

	// add, setdefault
	Table    string
	Priority int // -1: none given
	Keys     []KeyArg
	Action   string
	Args     []KeyArg
	EntryID  string // add ... = ID

	// packet, expect
	Port    uint32
	Data    string // packet: hex digits; expect: hex digits, '*' and a final '$'
	HasData bool   // expect PORT alone matches any packets

	// direct commands (mirroring_*, mc_*, register_*, counter_*, meter_*):
	// their arguments as written.
	Fields []string
}

// KeyArg is NAME:VALUE (a key field match or an action argument). VALUE is
// kept as written: 0x.., 0b.., decimal, with '*' digits, V/LEN, and, beyond
// p4c's grammar, V&&&M and LO->HI.
type KeyArg struct {
	Name, Value string
}

// directCommands take their arguments as written (bmv2stf.py passes them
// to simple_switch_CLI unchanged).
var directCommands = map[string]bool{
	"mirroring_add": true, "mirroring_add_mc": true, "mirroring_delete": true, "mirroring_get": true,
	"mc_mgrp_create": true, "mc_node_create": true, "mc_node_update": true, "mc_node_associate": true,
	"counter_read": true, "counter_write": true, "register_read": true, "register_write": true,
	"register_reset": true, "meter_get_rates": true, "meter_set_rates": true, "meter_array_set_rates": true,
}

// ParseSTF parses an STF file. A line it cannot read is an error naming the
// line (p4c's parser fails the test on it too).
func ParseSTF(src string) ([]Command, error) {
	var cmds []Command
	for i, raw := range strings.Split(src, "\n") {
		line := raw
		if j := strings.IndexByte(line, '#'); j >= 0 {
			line = line[:j]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		c, err := parseLine(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v: %q", i+1, err, line)
		}
		c.Line, c.Text = i+1, line
		cmds = append(cmds, c)
	}
	return cmds, nil
}

func parseLine(line string) (Command, error) {
	word, rest, _ := strings.Cut(line, " ")
	if j := strings.IndexAny(word, "\t"); j >= 0 {
		word, rest = word[:j], word[j:]+" "+rest
	}
	c := Command{Kind: strings.ToLower(word), Priority: -1}
	rest = strings.TrimSpace(rest)
	switch {
	case c.Kind == "packet" || c.Kind == "expect":
		return parsePacketLine(c, rest)
	case c.Kind == "add" || c.Kind == "setdefault":
		toks, err := lex(rest)
		if err != nil {
			return c, err
		}
		p := &tokParser{toks: toks}
		if c.Kind == "add" {
			err = p.add(&c)
		} else {
			err = p.setDefault(&c)
		}
		return c, err
	case directCommands[c.Kind]:
		c.Fields = strings.Fields(rest)
		return c, nil
	default:
		// wait, remove, check_counter, no_packet and anything else: the
		// runner decides what it does with them.
		c.Fields = strings.Fields(rest)
		return c, nil
	}
}

// parsePacketLine reads "PORT DATA...": the data is every hex digit (and,
// for expect, '*' and a final '$'), spaces removed.
func parsePacketLine(c Command, rest string) (Command, error) {
	f := strings.Fields(rest)
	if len(f) == 0 {
		return c, fmt.Errorf("%s needs a port", c.Kind)
	}
	port, err := strconv.ParseUint(f[0], 10, 32)
	if err != nil {
		return c, fmt.Errorf("port %q is not a decimal number", f[0])
	}
	c.Port = uint32(port)
	data := strings.Join(f[1:], "")
	for i, r := range data {
		switch {
		case isHex(byte(r)):
		case c.Kind == "expect" && r == '*':
		case c.Kind == "expect" && r == '$' && i == len(data)-1:
		default:
			return c, fmt.Errorf("invalid %s data character %q", c.Kind, r)
		}
	}
	// "packet PORT" alone is an empty packet: bmv2stf.py writes the empty
	// byte string it makes of no data.
	c.Data, c.HasData = data, data != ""
	return c, nil
}

func isHex(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F'
}

// token kinds of add and setdefault lines.
const (
	tIdent = iota
	tNumber
	tPunct // ( ) , : / [ ] . = &&& ->
)

type token struct {
	kind int
	text string
}

func isIdentStart(b byte) bool {
	return b == '_' || b == '$' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

func isIdentChar(b byte) bool { return isIdentStart(b) || b >= '0' && b <= '9' }

// lex splits an add/setdefault line as stf_lexer.py does: identifiers (with
// '$'; "quoted" ones too), numbers (0x with '*' digits, 0b with '*' digits,
// 0o, decimal) and punctuation.
func lex(s string) ([]token, error) {
	var out []token
	for i := 0; i < len(s); {
		b := s[i]
		switch {
		case b == ' ' || b == '\t':
			i++
		case b == '"':
			j := strings.IndexByte(s[i+1:], '"')
			if j <= 0 {
				return nil, fmt.Errorf("unterminated quoted name")
			}
			out = append(out, token{tIdent, s[i+1 : i+1+j]})
			i += j + 2
		case strings.HasPrefix(s[i:], "&&&") || strings.HasPrefix(s[i:], "->"):
			n := 3
			if b == '-' {
				n = 2
			}
			out = append(out, token{tPunct, s[i : i+n]})
			i += n
		case strings.ContainsRune("(),:/[].=", rune(b)):
			out = append(out, token{tPunct, string(b)})
			i++
		case b >= '0' && b <= '9':
			j := i + 1
			if b == '0' && j < len(s) && strings.ContainsRune("xXbBoO", rune(s[j])) {
				j++
			}
			for j < len(s) && (isHex(s[j]) || s[j] == '*') {
				j++
			}
			out = append(out, token{tNumber, s[i:j]})
			i = j
		case isIdentStart(b):
			j := i + 1
			for j < len(s) && isIdentChar(s[j]) {
				j++
			}
			out = append(out, token{tIdent, s[i:j]})
			i = j
		default:
			return nil, fmt.Errorf("illegal character %q", b)
		}
	}
	return out, nil
}

type tokParser struct {
	toks []token
	pos  int
}

func (p *tokParser) peek() (token, bool) {
	if p.pos < len(p.toks) {
		return p.toks[p.pos], true
	}
	return token{}, false
}

func (p *tokParser) isPunct(s string) bool {
	t, ok := p.peek()
	return ok && t.kind == tPunct && t.text == s
}

func (p *tokParser) expect(s string) error {
	if !p.isPunct(s) {
		t, _ := p.peek()
		return fmt.Errorf("expected %q, found %q", s, t.text)
	}
	p.pos++
	return nil
}

// name reads a qualified name: ID ([N])? (. ID ([N])?)*.
func (p *tokParser) name() (string, error) {
	var b strings.Builder
	for {
		t, ok := p.peek()
		if !ok || t.kind != tIdent {
			return "", fmt.Errorf("expected a name, found %q", t.text)
		}
		p.pos++
		b.WriteString(t.text)
		if p.isPunct("[") {
			p.pos++
			n, ok := p.peek()
			if !ok || n.kind != tNumber {
				return "", fmt.Errorf("expected an index")
			}
			p.pos++
			if err := p.expect("]"); err != nil {
				return "", err
			}
			b.WriteString("[" + n.text + "]")
		}
		if !p.isPunct(".") {
			return b.String(), nil
		}
		p.pos++
		b.WriteByte('.')
	}
}

func (p *tokParser) number() (string, error) {
	t, ok := p.peek()
	if !ok || t.kind != tNumber {
		return "", fmt.Errorf("expected a number, found %q", t.text)
	}
	p.pos++
	return t.text, nil
}

// value reads a match value: N, N/N, and (extensions) N&&&N, N->N.
func (p *tokParser) value() (string, error) {
	v, err := p.number()
	if err != nil {
		return "", err
	}
	for _, op := range []string{"/", "&&&", "->"} {
		if p.isPunct(op) {
			p.pos++
			w, err := p.number()
			if err != nil {
				return "", err
			}
			return v + op + w, nil
		}
	}
	return v, nil
}

// action reads NAME(ARG:VAL, ...), the name already read.
func (p *tokParser) action(c *Command, name string) error {
	c.Action = name
	if err := p.expect("("); err != nil {
		return err
	}
	for !p.isPunct(")") {
		if len(c.Args) > 0 {
			if err := p.expect(","); err != nil {
				return err
			}
		}
		t, ok := p.peek()
		if !ok || t.kind != tIdent {
			return fmt.Errorf("expected an action argument name, found %q", t.text)
		}
		p.pos++
		if err := p.expect(":"); err != nil {
			return err
		}
		v, err := p.number()
		if err != nil {
			return err
		}
		c.Args = append(c.Args, KeyArg{t.text, v})
	}
	p.pos++
	return nil
}

func (p *tokParser) add(c *Command) error {
	var err error
	if c.Table, err = p.name(); err != nil {
		return err
	}
	if t, ok := p.peek(); ok && t.kind == tNumber {
		prio, err := strconv.Atoi(t.text)
		if err != nil {
			return fmt.Errorf("priority %q is not a decimal number", t.text)
		}
		c.Priority = prio
		p.pos++
	}
	for {
		n, err := p.name()
		if err != nil {
			return err
		}
		if p.isPunct("(") {
			if len(c.Keys) == 0 {
				return fmt.Errorf("add needs at least one key field")
			}
			if err := p.action(c, n); err != nil {
				return err
			}
			break
		}
		if err := p.expect(":"); err != nil {
			return err
		}
		v, err := p.value()
		if err != nil {
			return err
		}
		c.Keys = append(c.Keys, KeyArg{n, v})
	}
	if p.isPunct("=") {
		p.pos++
		t, ok := p.peek()
		if !ok || t.kind != tIdent {
			return fmt.Errorf("expected an entry id after '='")
		}
		c.EntryID = t.text
		p.pos++
	}
	return p.end()
}

func (p *tokParser) setDefault(c *Command) error {
	var err error
	if c.Table, err = p.name(); err != nil {
		return err
	}
	n, err := p.name()
	if err != nil {
		return err
	}
	if err := p.action(c, n); err != nil {
		return err
	}
	return p.end()
}

func (p *tokParser) end() error {
	if t, ok := p.peek(); ok {
		return fmt.Errorf("unexpected %q", t.text)
	}
	return nil
}
