// SPDX-License-Identifier: Apache-2.0

package v1model

import (
	"fmt"

	"github.com/flowbuf/flowbuf/pbswitch/bmv2json"
)

// UnsupportedError refuses a program that uses a construct the engine does
// not implement.
type UnsupportedError struct {
	Construct string // e.g. "primitive recirculate", "header stack"
	Where     string // the P4 source, when the JSON says
}

func (e *UnsupportedError) Error() string {
	if e.Where == "" {
		return fmt.Sprintf("the P4 program uses %s, which pbswitch's engine does not implement", e.Construct)
	}
	return fmt.Sprintf("the P4 program uses %s at %s, which pbswitch's engine does not implement", e.Construct, e.Where)
}

func unsupported(construct string, si *bmv2json.SourceInfo) error {
	return &UnsupportedError{Construct: construct, Where: si.String()}
}

// ProgramError is a JSON that is malformed or does not fit its p4info.
type ProgramError struct {
	What  string
	Where string
}

func (e *ProgramError) Error() string {
	if e.Where == "" {
		return "invalid P4 program: " + e.What
	}
	return fmt.Sprintf("invalid P4 program at %s: %s", e.Where, e.What)
}

func invalid(si *bmv2json.SourceInfo, format string, args ...any) error {
	return &ProgramError{What: fmt.Sprintf(format, args...), Where: si.String()}
}
