// SPDX-License-Identifier: Apache-2.0

package gnmi

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	pb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

const (
	// MinSample is the shortest SAMPLE (and heartbeat) interval served; a
	// sample_interval of 0 gets it.
	MinSample = 100 * time.Millisecond
	// ChangePoll is how often an ON_CHANGE subscription looks for changed
	// counters; a port's admin or oper change is sent as the switch sees it.
	ChangePoll = time.Second
	// TargetSample is the interval TARGET_DEFINED samples counters at (as
	// Stratum); it streams every other leaf on change.
	TargetSample = 10 * time.Second
)

// watch is one streaming subscription: its leaves, how they are sent, and
// what was sent last (for ON_CHANGE and suppress_redundant).
type watch struct {
	sel       selection
	onChange  bool
	interval  time.Duration // SAMPLE
	heartbeat time.Duration
	suppress  bool
	last      map[string]*pb.TypedValue
}

// stream serialises the sends of one Subscribe RPC's goroutines and stops
// them when the RPC ends.
type stream struct {
	srv  *Server
	rpc  pb.GNMI_SubscribeServer
	mu   sync.Mutex
	done bool
}

func (st *stream) send(r *pb.SubscribeResponse) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.done {
		return context.Canceled
	}
	return st.rpc.Send(r)
}

func (st *stream) end() {
	st.mu.Lock()
	st.done = true
	st.mu.Unlock()
}

func (st *stream) sync() error {
	return st.send(&pb.SubscribeResponse{Response: &pb.SubscribeResponse_SyncResponse{SyncResponse: true}})
}

// Subscribe implements gNMI.
func (s *Server) Subscribe(rpc pb.GNMI_SubscribeServer) error {
	req, err := rpc.Recv()
	if errors.Is(err, io.EOF) {
		return status.Error(codes.InvalidArgument, "the stream ended before a subscription list")
	}
	if err != nil {
		return err
	}
	list := req.GetSubscribe()
	if list == nil {
		return status.Error(codes.InvalidArgument, "the first request must carry a subscription list (subscribe)")
	}
	if err := checkList(list); err != nil {
		return err
	}
	st := &stream{srv: s, rpc: rpc}
	defer st.end()
	switch list.GetMode() {
	case pb.SubscriptionList_ONCE:
		return st.once(list)
	case pb.SubscriptionList_POLL:
		return st.poll(list)
	case pb.SubscriptionList_STREAM:
		return st.stream(list)
	default:
		return status.Errorf(codes.InvalidArgument, "unknown subscription list mode %v", list.GetMode())
	}
}

func checkList(list *pb.SubscriptionList) error {
	if err := checkEncoding(list.GetEncoding()); err != nil {
		return err
	}
	if len(list.GetUseModels()) > 0 {
		return status.Error(codes.Unimplemented, "use_models is not supported")
	}
	if len(list.GetSubscription()) == 0 {
		return status.Error(codes.InvalidArgument, "the subscription list is empty")
	}
	return nil
}

// selections resolves the list's paths.
func selections(list *pb.SubscriptionList) ([]selection, error) {
	out := make([]selection, len(list.GetSubscription()))
	for i, sub := range list.GetSubscription() {
		var err error
		if out[i], err = resolve(list.GetPrefix(), sub.GetPath()); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// snapshot sends the current values of sels, one notification per
// interface; a path naming an interface the switch lacks sends nothing
// (the specification's "no value returned for non-existent paths").
func (st *stream) snapshot(sels []selection) error {
	all := st.srv.ports.PortStatuses()
	for _, sel := range sels {
		for _, ps := range sel.ports(all) {
			ups := updates(&ps, sel.leaves, func(*leaf) bool { return true })
			if len(ups) == 0 {
				continue
			}
			n := &pb.Notification{Timestamp: st.srv.now().UnixNano(), Update: ups}
			if err := st.send(&pb.SubscribeResponse{Response: &pb.SubscribeResponse_Update{Update: n}}); err != nil {
				return err
			}
		}
	}
	return nil
}

// begin reads the list's selections and sends their values (unless the
// client asked for updates only) and the sync_response: how ONCE and POLL
// subscriptions start.
func (st *stream) begin(list *pb.SubscriptionList) ([]selection, error) {
	sels, err := selections(list)
	if err != nil {
		return nil, err
	}
	if !list.GetUpdatesOnly() {
		if err := st.snapshot(sels); err != nil {
			return nil, err
		}
	}
	return sels, st.sync()
}

// once sends the values and sync_response, then ends the RPC.
func (st *stream) once(list *pb.SubscriptionList) error {
	_, err := st.begin(list)
	return err
}

// poll sends the values and sync_response at the start and at each poll
// request, until the client ends the stream.
func (st *stream) poll(list *pb.SubscriptionList) error {
	sels, err := st.begin(list)
	if err != nil {
		return err
	}
	for {
		req, err := st.rpc.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := checkLater(req, true); err != nil {
			return err
		}
		if err := st.snapshot(sels); err != nil {
			return err
		}
		if err := st.sync(); err != nil {
			return err
		}
	}
}

// checkLater checks a request after the subscription list: only a poll,
// and only on a POLL subscription.
func checkLater(req *pb.SubscribeRequest, polling bool) error {
	switch {
	case req.GetSubscribe() != nil:
		return status.Error(codes.InvalidArgument, "a Subscribe RPC takes one subscription list: open another RPC for more")
	case req.GetPoll() != nil && !polling:
		return status.Error(codes.InvalidArgument, "a poll request on a subscription that is not POLL")
	case req.GetPoll() == nil:
		return status.Error(codes.InvalidArgument, "an empty subscribe request")
	}
	return nil
}

// watches turns a STREAM list into watches; TARGET_DEFINED becomes an
// ON_CHANGE watch of the leaves that change by events and a SAMPLE watch
// of the counters.
func watches(list *pb.SubscriptionList) ([]*watch, error) {
	sels, err := selections(list)
	if err != nil {
		return nil, err
	}
	var out []*watch
	for i, sub := range list.GetSubscription() {
		hb := time.Duration(sub.GetHeartbeatInterval())
		if hb != 0 && hb < MinSample {
			return nil, status.Errorf(codes.InvalidArgument, "heartbeat_interval %v is below the shortest served, %v", hb, MinSample)
		}
		w := &watch{sel: sels[i], heartbeat: hb, suppress: sub.GetSuppressRedundant()}
		switch sub.GetMode() {
		case pb.SubscriptionMode_ON_CHANGE:
			w.onChange = true
			out = append(out, w)
		case pb.SubscriptionMode_SAMPLE:
			iv := time.Duration(sub.GetSampleInterval())
			if iv == 0 {
				iv = MinSample
			}
			if iv < MinSample {
				return nil, status.Errorf(codes.InvalidArgument, "sample_interval %v is below the shortest served, %v", iv, MinSample)
			}
			w.interval = iv
			out = append(out, w)
		case pb.SubscriptionMode_TARGET_DEFINED:
			if sub.GetSampleInterval() != 0 {
				return nil, status.Error(codes.InvalidArgument, "TARGET_DEFINED leaves the sample interval to the target: sample_interval must be 0")
			}
			out = append(out, splitTargetDefined(w)...)
		default:
			return nil, status.Errorf(codes.InvalidArgument, "unknown subscription mode %v", sub.GetMode())
		}
	}
	return out, nil
}

func splitTargetDefined(w *watch) []*watch {
	changed := &watch{sel: selection{iface: w.sel.iface}, onChange: true, heartbeat: w.heartbeat}
	sampled := &watch{sel: selection{iface: w.sel.iface}, interval: TargetSample, heartbeat: w.heartbeat}
	for _, l := range w.sel.leaves {
		if l.sampled {
			sampled.sel.leaves = append(sampled.sel.leaves, l)
		} else {
			changed.sel.leaves = append(changed.sel.leaves, l)
		}
	}
	var out []*watch
	for _, x := range []*watch{changed, sampled} {
		if len(x.sel.leaves) > 0 {
			out = append(out, x)
		}
	}
	return out
}

// stream sends the initial values (unless updates_only), sync_response,
// then each watch's updates until the client cancels.
func (st *stream) stream(list *pb.SubscriptionList) error {
	ws, err := watches(list)
	if err != nil {
		return err
	}
	for _, w := range ws {
		if err := st.emit(w, false, !list.GetUpdatesOnly()); err != nil {
			return err
		}
	}
	if err := st.sync(); err != nil {
		return err
	}
	ctx := st.rpc.Context()
	errc := make(chan error, len(ws)+1)
	for _, w := range ws {
		go func() { errc <- st.run(ctx, w) }()
	}
	go func() { errc <- st.readStreaming(ctx) }()
	for {
		select {
		case <-ctx.Done():
			return status.FromContextError(ctx.Err()).Err()
		case err := <-errc:
			if err != nil {
				return err
			}
		}
	}
}

// readStreaming refuses what a client may not send on a STREAM
// subscription; a client that closes its side keeps the stream.
func (st *stream) readStreaming(ctx context.Context) error {
	for {
		req, err := st.rpc.Recv()
		if errors.Is(err, io.EOF) {
			<-ctx.Done()
			return nil
		}
		if err != nil {
			return err
		}
		if err := checkLater(req, false); err != nil {
			return err
		}
	}
}

// run drives one watch: ON_CHANGE sends what changed when a port changes
// and every ChangePoll; SAMPLE sends every interval (what changed, with
// suppress_redundant); a heartbeat sends everything.
func (st *stream) run(ctx context.Context, w *watch) error {
	every := w.interval
	var wake <-chan struct{}
	if w.onChange {
		every = ChangePoll
		ch, stop := st.srv.watch()
		defer stop()
		wake = ch
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	var beat <-chan time.Time
	if w.heartbeat > 0 {
		hb := time.NewTicker(w.heartbeat)
		defer hb.Stop()
		beat = hb.C
	}
	onlyChanged := w.onChange || w.suppress
	for {
		var err error
		select {
		case <-ctx.Done():
			return nil
		case <-wake:
			err = st.emit(w, true, true)
		case <-tick.C:
			err = st.emit(w, onlyChanged, true)
		case <-beat:
			err = st.emit(w, false, true)
		}
		if err != nil {
			return err
		}
	}
}

// emit sends w's leaves for each interface in one notification (ONOS
// reads oper-status and last-change from the same one): all of them, or
// only those that changed since last sent. With send false it only
// records them (updates_only).
func (st *stream) emit(w *watch, onlyChanged, send bool) error {
	if w.last == nil {
		w.last = map[string]*pb.TypedValue{}
	}
	for _, ps := range w.sel.ports(st.srv.ports.PortStatuses()) {
		var out []*pb.Update
		for _, u := range updates(&ps, w.sel.leaves, func(*leaf) bool { return true }) {
			key := show(u.GetPath().GetElem())
			if onlyChanged && proto.Equal(w.last[key], u.GetVal()) {
				continue
			}
			w.last[key] = u.GetVal()
			out = append(out, u)
		}
		if len(out) == 0 || !send {
			continue
		}
		n := &pb.Notification{Timestamp: st.srv.now().UnixNano(), Update: out}
		if err := st.send(&pb.SubscribeResponse{Response: &pb.SubscribeResponse_Update{Update: n}}); err != nil {
			return err
		}
	}
	return nil
}
