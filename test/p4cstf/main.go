// SPDX-License-Identifier: Apache-2.0

// Command p4cstf runs p4c's own v1model STF tests (testdata/p4_16_samples)
// on pbswitch's v1model engine: each program is compiled with p4c-bm2-ss,
// loaded by the engine and played on a dataplane.Switch as bmv2stf.py plays
// it on simple_switch. It reports per program pass, fail, refused,
// p4c_error or unsupported_stf, and the counts as JSON lines. It exits 0
// with failures (it is a measurement) and when p4c-bm2-ss is missing (it
// says it skips).
//
// Each program runs in a child process (this binary, re-executed), so that
// an engine that panics in an egress goroutine or loops fails that program
// only.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

const childArg = "__p4cstf_run_one"

func main() {
	if len(os.Args) == 5 && os.Args[1] == childArg {
		child(os.Args[2], os.Args[3], os.Args[4])
		return
	}
	os.Exit(parent())
}

// child runs one compiled program and prints its result as JSON.
func child(jsonPath, infoPath, stfPath string) {
	r := runProgram(jsonPath, infoPath, stfPath)
	b, _ := json.Marshal(r)
	os.Stdout.Write(append(b, '\n'))
}

func defaultSamples() string {
	if d := os.Getenv("P4C_SAMPLES"); d != "" {
		return d
	}
	return "/work/build-p4/p4c/testdata/p4_16_samples"
}

func parent() int {
	samplesDir := flag.String("samples", defaultSamples(), "p4c's testdata/p4_16_samples (or $P4C_SAMPLES)")
	p4cFlag := flag.String("p4c", "", "p4c-bm2-ss (default: $P4C, else on PATH, else /opt/p4/bin)")
	filterFlag := flag.String("filter", "", "only programs whose name matches this regular expression")
	verbose := flag.Bool("v", false, "print one line per program (and its notes)")
	jobs := flag.Int("j", 1, "programs compiled and run at once")
	compileTimeout := flag.Duration("compile-timeout", 60*time.Second, "bound on one p4c run")
	runTimeout := flag.Duration("run-timeout", 60*time.Second, "bound on one program's run on the engine")
	keep := flag.String("keep", "", "keep p4c's outputs in this directory (default: a temporary one, removed)")
	resultsFile := flag.String("results", "", "also write each program's result as a JSON line to this file")
	flag.Parse()

	p4c, err := findP4C(*p4cFlag)
	if err != nil {
		fmt.Println("p4cstf: p4c-bm2-ss not found (give --p4c or $P4C, or install p4c into /opt/p4/bin): skipping p4c's STF samples")
		return 0
	}
	if _, err := os.Stat(*samplesDir); err != nil {
		if *samplesDir == defaultSamples() {
			fmt.Printf("p4cstf: no p4c samples at %s (give --samples or $P4C_SAMPLES): skipping p4c's STF samples\n", *samplesDir)
			return 0
		}
		fmt.Fprintf(os.Stderr, "p4cstf: %v\n", err)
		return 2
	}
	var filter *regexp.Regexp
	if *filterFlag != "" {
		if filter, err = regexp.Compile(*filterFlag); err != nil {
			fmt.Fprintf(os.Stderr, "p4cstf: --filter: %v\n", err)
			return 2
		}
	}
	samples, err := findSamples(*samplesDir, filter)
	if err != nil {
		fmt.Fprintf(os.Stderr, "p4cstf: %v\n", err)
		return 2
	}
	work := *keep
	if work == "" {
		if work, err = os.MkdirTemp("", "p4cstf-"); err != nil {
			fmt.Fprintf(os.Stderr, "p4cstf: %v\n", err)
			return 2
		}
		defer os.RemoveAll(work)
	} else if err := os.MkdirAll(work, 0o755); err != nil {
		fmt.Fprintf(os.Stderr, "p4cstf: %v\n", err)
		return 2
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(os.Stderr, "p4cstf: %v\n", err)
		return 2
	}
	fmt.Printf("p4cstf: %d v1model programs with an STF in %s, compiled by %s\n", len(samples), *samplesDir, p4c)

	start := time.Now()
	results := make([]result, len(samples))
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < max(*jobs, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				t0 := time.Now()
				r := oneSample(p4c, samples[i], work, self, *compileTimeout, *runTimeout)
				r.Program, r.Seconds = samples[i].Name, time.Since(t0).Seconds()
				results[i] = r
				if *verbose {
					mu.Lock()
					fmt.Fprintf(os.Stderr, "[%3d/%d] %s\n", i+1, len(samples), programLine(r))
					mu.Unlock()
				}
			}
		}()
	}
	for i := range samples {
		next <- i
	}
	close(next)
	wg.Wait()
	elapsed := time.Since(start)

	if *resultsFile != "" {
		var b bytes.Buffer
		for _, r := range results {
			line, _ := json.Marshal(r)
			b.Write(append(line, '\n'))
		}
		if err := os.WriteFile(*resultsFile, b.Bytes(), 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "p4cstf: %v\n", err)
			return 2
		}
	}
	report(os.Stdout, results, elapsed, *verbose)
	return 0
}

// oneSample compiles s and runs it in a child process.
func oneSample(p4c string, s sample, work, self string, compileTimeout, runTimeout time.Duration) result {
	out, err := compileSample(context.Background(), p4c, s, work, compileTimeout)
	if err != nil {
		return result{Status: statusP4CError, Reason: err.Error()}
	}
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, self, childArg, out.JSON, out.P4Info, s.STF)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return result{Status: statusFail, Reason: fmt.Sprintf("run: no end after %v (the engine loops?)", runTimeout)}
	}
	var r result
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil || runErr != nil {
		return result{Status: statusFail, Reason: "run: " + crashReason(stderr.String(), runErr)}
	}
	return r
}

// crashReason sums up a child that died: the panic message and the first
// frame in pbswitch's code.
func crashReason(stderr string, err error) string {
	lines := strings.Split(stderr, "\n")
	msg, where := "", ""
	for i, l := range lines {
		if msg == "" && (strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ")) {
			msg = strings.TrimSpace(l)
		}
		if msg != "" && where == "" && strings.Contains(l, "/pbswitch/") && !strings.Contains(l, "panic") && i+1 < len(lines) {
			fn := strings.TrimSpace(l)
			if j := strings.LastIndex(fn, "("); j > 0 {
				fn = fn[:j]
			}
			where = filepath.Base(fn) + " " + filepath.Base(strings.Fields(strings.TrimSpace(lines[i+1]))[0])
		}
	}
	if msg == "" {
		if err != nil {
			return "the run died: " + err.Error()
		}
		return "the run printed no result"
	}
	if where != "" {
		return "engine crash: " + msg + " in " + where
	}
	return "engine crash: " + msg
}
