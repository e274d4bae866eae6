// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// sample is one p4c test program with its STF file.
type sample struct {
	Name string // X for X.p4
	P4   string
	STF  string
}

var v1modelInclude = regexp.MustCompile(`(?m)^\s*#\s*include\s*[<"]v1model\.p4[>"]`)

// findSamples lists dir's X.p4 that have an X.stf and include v1model.p4
// (p4c's CMake selects its v1model tests by that include), in name order.
func findSamples(dir string, filter *regexp.Regexp) ([]sample, error) {
	stfs, err := filepath.Glob(filepath.Join(dir, "*.stf"))
	if err != nil {
		return nil, err
	}
	var out []sample
	for _, stf := range stfs {
		name := strings.TrimSuffix(filepath.Base(stf), ".stf")
		if filter != nil && !filter.MatchString(name) {
			continue
		}
		p4 := filepath.Join(dir, name+".p4")
		src, err := os.ReadFile(p4)
		if err != nil {
			continue // an STF without its program
		}
		if !v1modelInclude.Match(src) {
			continue
		}
		out = append(out, sample{Name: name, P4: p4, STF: stf})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// compiled is p4c's output for one sample.
type compiled struct {
	JSON, P4Info string
}

// compileSample runs p4c-bm2-ss on s into dir, within timeout. An error is
// p4c failing on the program (its first error line).
func compileSample(ctx context.Context, p4c string, s sample, dir string, timeout time.Duration) (compiled, error) {
	out := compiled{
		JSON:   filepath.Join(dir, s.Name+".json"),
		P4Info: filepath.Join(dir, s.Name+".p4info.txt"),
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, p4c, "--arch", "v1model", "--std", "p4-16",
		"-o", out.JSON, "--p4runtime-files", out.P4Info, s.P4)
	cmd.Dir = filepath.Dir(s.P4)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	err := cmd.Run()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return out, fmt.Errorf("p4c timed out after %v", timeout)
	}
	if err != nil {
		return out, fmt.Errorf("%s", firstError(stderr.String(), err))
	}
	for _, f := range []string{out.JSON, out.P4Info} {
		if _, err := os.Stat(f); err != nil {
			return out, fmt.Errorf("p4c wrote no %s", filepath.Base(f))
		}
	}
	return out, nil
}

// firstError picks the first line of p4c's output that says error, else
// its first line.
func firstError(s string, err error) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for _, l := range lines {
		if strings.Contains(strings.ToLower(l), "error") {
			return strings.TrimSpace(l)
		}
	}
	if len(lines) > 0 && lines[0] != "" {
		return strings.TrimSpace(lines[0])
	}
	return err.Error()
}

// findP4C resolves the compiler: the flag, else $P4C, else p4c-bm2-ss on
// PATH, else /opt/p4/bin (where tools/ install it).
func findP4C(flagValue string) (string, error) {
	if flagValue != "" {
		return exec.LookPath(flagValue)
	}
	if env := os.Getenv("P4C"); env != "" {
		return exec.LookPath(env)
	}
	if p, err := exec.LookPath("p4c-bm2-ss"); err == nil {
		return p, nil
	}
	return exec.LookPath("/opt/p4/bin/p4c-bm2-ss")
}
