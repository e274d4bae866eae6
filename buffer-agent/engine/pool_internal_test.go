// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"sync"
	"testing"
)

func TestGetFrameSizesAndClasses(t *testing.T) {
	for _, c := range []struct{ n, cap int }{{60, smallFrameCap}, {smallFrameCap, smallFrameCap}, {smallFrameCap + 1, largeFrameCap}, {largeFrameCap, largeFrameCap}, {largeFrameCap + 1, largeFrameCap + 1}} {
		f := GetFrame(c.n)
		if len(f) != c.n || cap(f) != c.cap {
			t.Errorf("GetFrame(%d): len %d cap %d, want cap %d", c.n, len(f), cap(f), c.cap)
		}
		PutFrame(f)
	}
}

func TestGetFramesFillsTheBatch(t *testing.T) {
	for _, n := range []int{128, smallFrameCap + 1, largeFrameCap + 1} {
		batch := make([][]byte, 3*magazineSize) // more than a magazine: refills and allocations
		GetFrames(batch, n)
		seen := map[*byte]bool{}
		for i, f := range batch {
			if len(f) != n || seen[&f[:1][0]] {
				t.Fatalf("size %d, entry %d: len %d, seen before %v", n, i, len(f), seen[&f[:1][0]])
			}
			seen[&f[:1][0]] = true
		}
		PutFrames(batch)
	}
}

func TestPutFramesRecyclesAndClearsTheBatch(t *testing.T) {
	batch := make([][]byte, 0, 1000)
	seen := map[*byte]bool{}
	for i := 0; i < cap(batch); i++ {
		f := GetFrame(100)
		seen[&f[:1][0]] = true
		batch = append(batch, f)
	}
	batch = append(batch, make([]byte, 100)) // not a pool frame: left to the collector
	PutFrames(batch)
	for i, f := range batch {
		if f != nil {
			t.Fatalf("entry %d not cleared", i)
		}
	}
	reused := 0
	for i := 0; i < 1000; i++ {
		if f := GetFrame(100); seen[&f[:1][0]] {
			reused++
		}
	}
	// The race detector's sync.Pool drops a share of what it is given:
	// ask for some reuse, not all.
	if reused == 0 {
		t.Fatal("no frame was reused")
	}
}

func TestMagazineSpillsHalfToTheDepotAndRefills(t *testing.T) {
	l := &frameList{size: 16}
	m := new(magazine)
	for i := 0; i < magazineSize+1; i++ {
		l.putIn(m, make([]byte, 1, 16))
	}
	if m.n != magazineSize/2+1 || len(l.depot) != magazineSize/2 {
		t.Fatalf("after a full magazine and one more: magazine %d, depot %d", m.n, len(l.depot))
	}
	for _, f := range m.frames[m.n:] {
		if f != nil {
			t.Fatal("a spilled frame is still referenced by the magazine")
		}
	}
	m2 := new(magazine)
	l.refill(m2)
	if m2.n != magazineSize/2 || len(l.depot) != 0 {
		t.Fatalf("refill: magazine %d, depot %d", m2.n, len(l.depot))
	}
	l.refill(m2) // an empty depot leaves the magazine empty of new frames
	if m2.n != 0 {
		t.Fatalf("refill from an empty depot: %d frames", m2.n)
	}
}

func TestDepotIsBounded(t *testing.T) {
	l := &frameList{size: 16, depot: make([][]byte, maxFreeFrames-3)}
	m := new(magazine)
	for i := 0; i < magazineSize+1; i++ {
		l.putIn(m, make([]byte, 1, 16))
	}
	if len(l.depot) != maxFreeFrames || m.n != magazineSize/2+1 {
		t.Fatalf("depot %d (max %d), magazine %d", len(l.depot), maxFreeFrames, m.n)
	}
}

// Frames handed out at the same time are never the same memory (the race
// detector also watches the magazines here).
func TestFramesAreNeverHandedOutTwice(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(mark byte) {
			defer wg.Done()
			held := make([][]byte, 0, 100)
			for round := 0; round < 200; round++ {
				for i := 0; i < cap(held); i++ {
					f := GetFrame(64)
					for j := range f {
						f[j] = mark
					}
					held = append(held, f)
				}
				for _, f := range held {
					for _, c := range f {
						if c != mark {
							errs <- "a frame held by one goroutine was written by another"
							return
						}
					}
				}
				if round%2 == 0 {
					PutFrames(held)
				} else {
					for _, f := range held {
						PutFrame(f)
					}
				}
				held = held[:0]
			}
		}(byte(g + 1))
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}
