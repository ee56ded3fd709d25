package watch

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/seed53c283f5/robotstxt/store"
)

// The headers of an alert's POST.
const (
	// SignatureHeader carries the alert's signature, when its watch has a
	// secret: "t=" and the Unix time of the try, then ",v1=" and the
	// hexadecimal HMAC-SHA256, keyed with the secret, of the time, ".",
	// the delivery id, "." and the body (see Sign).
	SignatureHeader = "X-Robotstxt-Signature"
	// WatchHeader carries the watch's id.
	WatchHeader = "X-Robotstxt-Watch"
	// DeliveryHeader carries the alert's delivery id: the same in each
	// try of it, and on each server of a fleet that sends it, since it is
	// made from the watch and the change. A receiver drops the copies it
	// already has.
	DeliveryHeader = "X-Robotstxt-Delivery"
)

// Tolerance is how far the time of a signature may be from the
// receiver's clock for Verify to accept it: an alert captured and sent
// again later is refused.
const Tolerance = 5 * time.Minute

// maxBackoff bounds the wait between two tries of an alert.
const maxBackoff = 5 * time.Minute

// The timeouts of a try: the first is short, so that a receiver that
// accepts and never answers holds its own queue 5 s, not 30; the next
// tries wait longer.
const (
	firstTryTimeout = 5 * time.Second
	tryTimeout      = 30 * time.Second
)

// maxHostQueue bounds the alerts of one webhook host held in memory; the
// others wait in the store's outbox for a later scan.
const maxHostQueue = 256

// outboxScanLimit bounds the outbox entries one scan reads.
const outboxScanLimit = 1000

// Sign returns the value of the X-Robotstxt-Signature header of an alert
// whose body is body and delivery id is id, sent at t, for a watch whose
// secret is secret: "t=<unix>,v1=<hex>", where hex is the HMAC-SHA256,
// keyed with secret, of the decimal Unix time, ".", id, "." and body.
func Sign(secret, id string, body []byte, t time.Time) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + hex.EncodeToString(mac(secret, ts, id, body))
}

func mac(secret, ts, id string, body []byte) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts))
	m.Write([]byte("."))
	m.Write([]byte(id))
	m.Write([]byte("."))
	m.Write(body)
	return m.Sum(nil)
}

// Verify checks header, the X-Robotstxt-Signature of a POST whose
// X-Robotstxt-Delivery is id and whose body is body: that one of its v1
// signatures signs them with secret, and that its time is within
// Tolerance of now. It returns nil when the alert is genuine and fresh,
// and otherwise says why not. Receivers also drop a delivery id they have
// already seen.
func Verify(secret, id string, body []byte, header string, now time.Time) error {
	var ts string
	var sigs [][]byte
	for part := range strings.SplitSeq(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			continue
		}
		switch k {
		case "t":
			ts = v
		case "v1":
			if b, err := hex.DecodeString(v); err == nil {
				sigs = append(sigs, b)
			}
		}
	}
	if ts == "" || len(sigs) == 0 {
		return errors.New("watch: the signature lacks its time (t=) or its HMAC (v1=)")
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return fmt.Errorf("watch: the signature's time %q is not a Unix time", ts)
	}
	if d := now.Sub(time.Unix(sec, 0)); d > Tolerance || d < -Tolerance {
		return fmt.Errorf("watch: the signature was made at %s, more than %v from now", time.Unix(sec, 0).UTC().Format(time.RFC3339), Tolerance)
	}
	want := mac(secret, ts, id, body)
	for _, s := range sigs {
		if hmac.Equal(s, want) {
			return nil
		}
	}
	return errors.New("watch: the signature does not match: another secret, delivery id or body")
}

// outboxPrefix starts the key of each alert waiting in the store's
// outbox; the delivery id follows.
const outboxPrefix = "watch-outbox "

// sendLeasePrefix starts the lease an engine of a fleet takes on an alert
// while it sends it, so that another does not send it at once too.
const sendLeasePrefix = "watch-send "

// outboxEntry is an alert waiting in the outbox: written with the state
// that found it, deleted when delivered (or given up).
type outboxEntry struct {
	ID    string `json:"id"`
	Watch string `json:"watch"`
	// Seq orders the alerts of a host: the Unix nanoseconds of the
	// check that found it.
	Seq  int64           `json:"seq"`
	Body json.RawMessage `json:"body"`
}

// deliveryID is the id of the alert of watch id for the change from the
// state whose digest is before to the one whose digest is after: the same
// on every server that finds the same change.
func deliveryID(watch, before, after string) string {
	h := sha256.New()
	h.Write([]byte("robotstxt-watch-delivery\x00" + watch + "\x00" + before + "\x00" + after))
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// hostQueue is the alerts of one webhook host, in order, sent one at a
// time by one goroutine while it has any.
type hostQueue struct {
	items   []*outboxEntry
	running bool
}

// outbox is what the engine holds in memory of the alerts to send.
type outbox struct {
	mu    sync.Mutex
	ctx   context.Context // the deliveries' context; nil: not delivering
	hosts map[string]*hostQueue
	known map[string]bool // ids queued or being sent
	wg    sync.WaitGroup
	idle  *sync.Cond // signalled when a host's queue empties
}

func newOutbox() *outbox {
	o := &outbox{hosts: map[string]*hostQueue{}, known: map[string]bool{}}
	o.idle = sync.NewCond(&o.mu)
	return o
}

// webhookHost is the queue a webhook's alerts wait in: its host and port.
func webhookHost(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return strings.ToLower(u.Host)
}

// outboxOp is the store operation that records an alert in the outbox,
// with the entry it writes; nil when w has no webhook (a webhook this
// server cannot unseal is one: another server may send it).
func (e *Engine) outboxOp(w *Watch, a *Alert, id string, seq int64) (*outboxEntry, *store.Op, error) {
	if w.Webhook == "" && w.unreadable == "" {
		return nil, nil, nil
	}
	body, err := json.Marshal(a)
	if err != nil {
		return nil, nil, err
	}
	ent := &outboxEntry{ID: id, Watch: w.ID, Seq: seq, Body: body}
	b, err := json.Marshal(ent)
	if err != nil {
		return nil, nil, err
	}
	return ent, &store.Op{Key: outboxPrefix + id, Value: b}, nil
}

// queue hands ent to its host's queue, unless it is there already, or
// the engine is not delivering (it waits in the store), or the host's
// queue is full (it waits in the store for a later scan).
func (e *Engine) queue(ent *outboxEntry, host string) {
	o := e.out
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.ctx == nil || o.known[ent.ID] {
		return
	}
	q := o.hosts[host]
	if q == nil {
		q = &hostQueue{}
		o.hosts[host] = q
	}
	if len(q.items) >= maxHostQueue {
		e.metrics.alerts.WithLabelValues("deferred").Inc()
		return
	}
	o.known[ent.ID] = true
	i, _ := slices.BinarySearchFunc(q.items, ent, func(a, b *outboxEntry) int {
		if a.Seq != b.Seq {
			return compare(a.Seq, b.Seq)
		}
		return strings.Compare(a.ID, b.ID)
	})
	q.items = slices.Insert(q.items, i, ent)
	if !q.running {
		q.running = true
		o.wg.Add(1)
		go e.runHost(o.ctx, host, q)
	}
}

func compare(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// runHost sends the alerts of host's queue, one at a time, in order,
// until it is empty or ctx ends.
func (e *Engine) runHost(ctx context.Context, host string, q *hostQueue) {
	o := e.out
	defer o.wg.Done()
	for {
		o.mu.Lock()
		if len(q.items) == 0 || ctx.Err() != nil {
			q.running = false
			for _, ent := range q.items {
				delete(o.known, ent.ID)
			}
			q.items = nil
			delete(o.hosts, host)
			o.idle.Broadcast()
			o.mu.Unlock()
			return
		}
		// Taken off the queue now: an alert queued meanwhile with an
		// older Seq goes before the rest, not before this one.
		ent := q.items[0]
		q.items = q.items[1:]
		o.mu.Unlock()
		e.deliverEntry(ctx, ent)
		o.mu.Lock()
		delete(o.known, ent.ID)
		o.mu.Unlock()
	}
}

// deliverEntry sends one alert of the outbox and, when it is done with it
// (delivered, refused, or out of tries), deletes it from the outbox. When
// ctx ends first the alert stays in the outbox, for the next start.
func (e *Engine) deliverEntry(ctx context.Context, ent *outboxEntry) {
	if e.leaser != nil {
		ok, err := e.leaser.Lease(ctx, sendLeasePrefix+ent.ID, e.owner, maxBackoff+2*tryTimeout)
		if err != nil || !ok {
			return // another engine sends it, or the store is away: a later scan
		}
		defer e.leaser.Release(context.WithoutCancel(ctx), sendLeasePrefix+ent.ID, e.owner)
	}
	// Sent and deleted meanwhile (by another engine, or by this one when
	// a scan read it just before)?
	if _, ok, err := e.store.Get(ctx, outboxPrefix+ent.ID); err != nil || !ok {
		return
	}
	w := e.load(ctx, ent.Watch)
	if w != nil && w.unreadable != "" {
		// Sealed with another key: left for a server that has it.
		e.log.Warn("watch: an alert waits for a server with the key of its webhook", "watch", w.ID, "delivery", ent.ID)
		return
	}
	if w == nil || w.Webhook == "" {
		// Deleted since: its alerts go with it.
		e.dropEntry(ctx, ent.ID)
		return
	}
	if e.send(ctx, w, ent) {
		e.dropEntry(ctx, ent.ID)
	}
}

func (e *Engine) dropEntry(ctx context.Context, id string) {
	if err := e.store.Delete(context.WithoutCancel(ctx), outboxPrefix+id); err != nil {
		e.log.Warn("watch: a sent alert stays in the outbox", "delivery", id, "err", err)
	}
}

// send posts ent to w's webhook, and tries again on failure, up to
// Attempts times. It reports whether the alert is done with (sent, or
// failed for good); false when ctx ended first.
func (e *Engine) send(ctx context.Context, w *Watch, ent *outboxEntry) bool {
	wait := e.opts.Backoff
	for attempt := 1; ; attempt++ {
		timeout := tryTimeout
		if attempt == 1 {
			timeout = e.opts.FirstTimeout
		}
		retry, err := e.post(ctx, w, ent, timeout)
		if err == nil {
			e.metrics.alerts.WithLabelValues("sent").Inc()
			return true
		}
		if ctx.Err() != nil {
			return false
		}
		if !retry || attempt >= e.opts.Attempts {
			e.metrics.alerts.WithLabelValues("failed").Inc()
			e.log.Warn("watch: alert not delivered", "watch", w.ID, "webhook", redactWebhook(w.Webhook), "attempts", attempt, "err", err)
			return true
		}
		e.metrics.retries.Inc()
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return false
		case <-t.C:
		}
		wait = min(2*wait, maxBackoff)
	}
}

// post makes one try; retry says whether another may succeed.
func (e *Engine) post(ctx context.Context, w *Watch, ent *outboxEntry, timeout time.Duration) (retry bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.Webhook, bytes.NewReader(ent.Body))
	if err != nil {
		return false, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "robotstxt-watch")
	req.Header.Set(WatchHeader, w.ID)
	req.Header.Set(DeliveryHeader, ent.ID)
	if w.Secret != "" {
		req.Header.Set(SignatureHeader, Sign(w.Secret, ent.ID, ent.Body, e.opts.Now()))
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return true, err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return false, nil
	case resp.StatusCode >= 500, resp.StatusCode == http.StatusTooManyRequests, resp.StatusCode == http.StatusRequestTimeout:
		return true, fmt.Errorf("the webhook answered %s", resp.Status)
	}
	return false, fmt.Errorf("the webhook answered %s", resp.Status)
}

// scanOutbox queues the alerts the outbox holds that are not queued yet:
// those of a previous run, of a fleet member that stopped, or that did
// not fit in their host's queue.
func (e *Engine) scanOutbox(ctx context.Context) {
	b, ok := e.store.(store.Batcher)
	if !ok {
		return
	}
	ents, err := b.Scan(ctx, outboxPrefix, outboxScanLimit)
	if err != nil {
		if ctx.Err() == nil {
			e.log.Warn("watch: reading the outbox", "err", err)
		}
		return
	}
	found := make([]*outboxEntry, 0, len(ents))
	for _, kv := range ents {
		var ent outboxEntry
		if json.Unmarshal(kv.Value, &ent) != nil || ent.ID == "" {
			e.store.Delete(ctx, kv.Key) // damaged: nothing to send
			continue
		}
		found = append(found, &ent)
	}
	// Oldest first, so that each host's queue starts with its oldest.
	slices.SortFunc(found, func(a, b *outboxEntry) int {
		if c := compare(a.Seq, b.Seq); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	for _, ent := range found {
		w := e.load(ctx, ent.Watch)
		if w != nil && w.unreadable != "" {
			continue // for a server with the key of its webhook
		}
		if w == nil || w.Webhook == "" {
			e.dropEntry(ctx, ent.ID)
			continue
		}
		e.queue(ent, webhookHost(w.Webhook))
	}
}

// Pending returns how many alerts wait in the store's outbox (for the
// metrics and the tests; 0 when the store cannot list them).
func (e *Engine) Pending(ctx context.Context) int {
	b, ok := e.store.(store.Batcher)
	if !ok {
		return 0
	}
	ents, err := b.Scan(ctx, outboxPrefix, 0)
	if err != nil {
		return 0
	}
	return len(ents)
}

// Deliver sends the alerts of the outbox until ctx ends: those queued by
// the checks, at once, and every PollInterval those the outbox holds that
// no one sends (a previous run's, a stopped fleet member's). Each webhook
// host has its own queue, sent in order, one alert at a time, so that a
// receiver that hangs delays only its own alerts. When ctx ends, Deliver
// goes on sending what is queued for at most Options.Drain, then stops;
// what is left stays in the outbox for the next start. Run calls it; a
// test of the engine without Run calls it itself.
func (e *Engine) Deliver(ctx context.Context) {
	o := e.out
	dctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	o.mu.Lock()
	o.ctx = dctx
	o.mu.Unlock()
	e.scanOutbox(ctx)
	t := time.NewTicker(e.opts.PollInterval)
	defer t.Stop()
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case <-t.C:
			e.scanOutbox(ctx)
		}
	}
	// Drain: what is queued goes on for at most Drain.
	timer := time.AfterFunc(e.opts.Drain, func() {
		cancel()
		o.mu.Lock()
		o.idle.Broadcast()
		o.mu.Unlock()
	})
	defer timer.Stop()
	o.mu.Lock()
	for len(o.hosts) > 0 && dctx.Err() == nil {
		o.idle.Wait()
	}
	o.ctx = nil
	o.mu.Unlock()
	cancel()
	o.wg.Wait()
}
