// SPDX-License-Identifier: Apache-2.0

// Command p4gen writes the v1model engine's generated controls for p4c's
// outputs: each argument is a directory holding a bmv2.json and its
// p4info.txt (FlowBuf's build and its profiles'). The engine runs the code
// only for those exact JSONs (pbswitch/v1model/generated.go).
//
//	go run ./pbswitch/cmd/p4gen -o pbswitch/v1model/controls_flowbuf_gen.go DIR...
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	p4info "github.com/p4lang/p4runtime/go/p4/config/v1"
	"google.golang.org/protobuf/encoding/prototext"

	"github.com/flowbuf/flowbuf/pbswitch/v1model"
)

func main() {
	out := flag.String("o", "", "the Go file to write")
	root := flag.String("root", ".", "directories are named relative to this one in the generated comments")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: p4gen -o FILE.go DIR... (each DIR holds bmv2.json and p4info.txt)")
		os.Exit(2)
	}
	var sources []v1model.GenSource
	for _, dir := range flag.Args() {
		src, err := readSource(dir, *root)
		if err != nil {
			fmt.Fprintln(os.Stderr, "p4gen:", err)
			os.Exit(1)
		}
		sources = append(sources, src)
	}
	code, err := v1model.GenerateControls(sources)
	if err != nil {
		fmt.Fprintln(os.Stderr, "p4gen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, code, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "p4gen:", err)
		os.Exit(1)
	}
}

// readSource reads a p4c output directory.
func readSource(dir, root string) (v1model.GenSource, error) {
	jb, err := os.ReadFile(filepath.Join(dir, "bmv2.json"))
	if err != nil {
		return v1model.GenSource{}, err
	}
	ib, err := os.ReadFile(filepath.Join(dir, "p4info.txt"))
	if err != nil {
		return v1model.GenSource{}, err
	}
	info := &p4info.P4Info{}
	if err := prototext.Unmarshal(ib, info); err != nil {
		return v1model.GenSource{}, fmt.Errorf("%s: %w", dir, err)
	}
	name := dir
	if rel, err := filepath.Rel(root, dir); err == nil {
		name = filepath.ToSlash(rel)
	}
	return v1model.GenSource{Name: name, BMv2: jb, P4Info: info}, nil
}
