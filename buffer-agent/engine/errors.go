// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"errors"
	"fmt"
)

// Code classifies an engine error. Each code maps 1:1 onto the gRPC status
// code of the same name in the southbound API's error model.
type Code int

// Error codes, named after the gRPC codes they map onto.
const (
	InvalidArgument Code = iota + 1
	NotFound
	AlreadyExists
	PermissionDenied
	FailedPrecondition
	ResourceExhausted
	Unimplemented
)

var codeNames = [...]string{"", "INVALID_ARGUMENT", "NOT_FOUND", "ALREADY_EXISTS",
	"PERMISSION_DENIED", "FAILED_PRECONDITION", "RESOURCE_EXHAUSTED", "UNIMPLEMENTED"}

func (c Code) String() string {
	if c < InvalidArgument || c > Unimplemented {
		return "UNKNOWN"
	}
	return codeNames[c]
}

// Error is the only error type the engine's API returns.
type Error struct {
	Code Code
	Msg  string
}

func (e *Error) Error() string { return e.Code.String() + ": " + e.Msg }

// CodeOf returns the code of an engine error anywhere in err's chain, and
// false when err is not (and does not wrap) an engine error.
func CodeOf(err error) (Code, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e.Code, true
	}
	return 0, false
}

func errorf(c Code, format string, args ...any) *Error {
	return &Error{Code: c, Msg: fmt.Sprintf(format, args...)}
}

// withPrefix keeps the code and prepends context, e.g. "operation 3: ".
func withPrefix(err error, prefix string) error {
	var e *Error
	if errors.As(err, &e) {
		return &Error{Code: e.Code, Msg: prefix + e.Msg}
	}
	return fmt.Errorf("%s%w", prefix, err)
}
