// SPDX-License-Identifier: Apache-2.0

package v1model

// Between two if-nodes nothing changes the packet (conditions have no side
// effects), so a run of if-nodes is a decision tree over the PHV as it
// stands. After linking, every maximal run that starts where a table, a
// fixed node or the control's start leads to an if-node is compiled into
// one decisionNode: its tests in a flat array, evaluated in a loop by a
// switch on the test's kind, and the nodes it can end on. The packet pays
// one node dispatch per run instead of one per if-node. The if-nodes stay
// (the decisionNode keeps its root) as the reference the tests hold it to.

// maxDecisionTests bounds a decisionNode: a run with more if-nodes ends
// on the original if-node, which goes on as before.
const maxDecisionTests = 64

// testKind is what a decision test reads.
type testKind uint8

const (
	testValid   testKind = iota // a header's validity
	testFlag                    // a metadata word != 0
	testSlotEq                  // a metadata word == k
	testFieldEq                 // a header field == k
	testClosure                 // any other condition's closure
)

// decisionTest is one if-node of a decisionNode. onTrue and onFalse are
// the index of the next test, or ^i for exits[i].
type decisionTest struct {
	kind            testKind
	at              int // the header (testValid) or the slot
	k               uint64
	get             func(*phv) uint64
	cond            func(*phv) bool
	onTrue, onFalse int
}

// decisionNode runs a run of if-nodes as one node.
type decisionNode struct {
	tests []decisionTest
	exits []node
	root  node // the first if-node of the run (for tests and walks)
}

func (d *decisionNode) run(s *phv) node {
	tests := d.tests
	i := 0
	for {
		t := &tests[i]
		var ok bool
		switch t.kind {
		case testValid:
			ok = s.valid[t.at]
		case testFlag:
			ok = s.slots[t.at] != 0
		case testSlotEq:
			ok = s.slots[t.at] == t.k
		case testFieldEq:
			ok = t.get(s) == t.k
		default:
			ok = t.cond(s)
		}
		next := t.onFalse
		if ok {
			next = t.onTrue
		}
		if next < 0 {
			return d.exits[^next]
		}
		i = next
	}
}

// decisionTestOf is if-node n as a test (its successors unset).
func decisionTestOf(n node) decisionTest {
	switch n := n.(type) {
	case *validNode:
		return decisionTest{kind: testValid, at: n.hdr}
	case *flagNode:
		return decisionTest{kind: testFlag, at: n.slot}
	case *slotEqNode:
		return decisionTest{kind: testSlotEq, at: n.slot, k: n.k}
	case *fieldEqNode:
		return decisionTest{kind: testFieldEq, get: n.get, k: n.k}
	case *condNode:
		return decisionTest{kind: testClosure, cond: n.cond}
	}
	panic("decisionTestOf: not an if-node")
}

// newDecisionNode compiles the run of if-nodes from root.
func newDecisionNode(root node) *decisionNode {
	d := &decisionNode{root: root}
	index := map[node]int{}
	exitOf := map[node]int{}
	exit := func(n node) int {
		i, ok := exitOf[n]
		if !ok {
			i = len(d.exits)
			exitOf[n] = i
			d.exits = append(d.exits, n)
		}
		return ^i
	}
	var add func(n node) int
	add = func(n node) int {
		if i, ok := index[n]; ok {
			return i
		}
		br := branchOf(n)
		if n == nil || br == nil || len(d.tests) == maxDecisionTests {
			return exit(n)
		}
		i := len(d.tests)
		index[n] = i
		d.tests = append(d.tests, decisionTestOf(n))
		onTrue, onFalse := add(br.onTrue), add(br.onFalse)
		d.tests[i].onTrue, d.tests[i].onFalse = onTrue, onFalse
		return i
	}
	add(root)
	return d
}

// compileDecisions replaces, in the control from first, every edge from a
// table or fixed node (and the start) into an if-node by an edge into the
// decisionNode of the run it starts; it returns the new start.
func compileDecisions(first node) node {
	decisions := map[node]*decisionNode{}
	into := func(n node) node {
		if n == nil || branchOf(n) == nil {
			return n
		}
		d, ok := decisions[n]
		if !ok {
			d = newDecisionNode(n)
			decisions[n] = d
		}
		return d
	}
	seen := map[node]bool{}
	var walk func(n node)
	walk = func(n node) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		if br := branchOf(n); br != nil {
			walk(br.onTrue)
			walk(br.onFalse)
			return
		}
		switch n := n.(type) {
		case *tableNode:
			walk(n.hit)
			walk(n.miss)
			walk(n.baseNext)
			for i := range n.acts {
				walk(n.acts[i].next)
			}
			n.hit, n.miss, n.baseNext = into(n.hit), into(n.miss), into(n.baseNext)
			for i := range n.acts {
				n.acts[i].next = into(n.acts[i].next)
			}
		case *fixedNode:
			walk(n.next)
			n.next = into(n.next)
		}
	}
	walk(first)
	return into(first)
}
