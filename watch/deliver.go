package watch

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// The headers of an alert's POST.
const (
	// SignatureHeader carries "sha256=" and the hexadecimal HMAC-SHA256
	// of the body, keyed with the watch's secret (only when it has one).
	SignatureHeader = "X-Robotstxt-Signature"
	// WatchHeader carries the watch's id.
	WatchHeader = "X-Robotstxt-Watch"
	// DeliveryHeader carries an id of the alert, the same in each
	// retry of it: a receiver drops the copies it already has.
	DeliveryHeader = "X-Robotstxt-Delivery"
)

// maxBackoff bounds the wait between two tries of an alert.
const maxBackoff = 5 * time.Minute

// Signature returns the value of the X-Robotstxt-Signature header of an
// alert whose body is body, for a watch whose secret is secret:
// "sha256=" and the hexadecimal HMAC-SHA256 of body keyed with secret.
// A receiver computes it over the body it got and compares the two with
// hmac.Equal.
func Signature(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// Verify reports whether header, the X-Robotstxt-Signature of a POST,
// signs body with secret.
func Verify(secret string, body []byte, header string) bool {
	return hmac.Equal([]byte(header), []byte(Signature(secret, body)))
}

// delivery is an alert on its way.
type delivery struct {
	watch, url, secret, id string
	body                   []byte
}

// enqueue queues a's POST to w's webhook, or drops it when the queue is
// full: a check never waits for a receiver.
func (e *Engine) enqueue(w *Watch, a *Alert) {
	body, err := json.Marshal(a)
	if err != nil {
		e.log.Warn("watch: alert not encoded", "watch", w.ID, "err", err)
		return
	}
	d := &delivery{watch: w.ID, url: w.Webhook, secret: w.Secret, id: newID(), body: body}
	select {
	case e.queue <- d:
	default:
		e.metrics.alerts.WithLabelValues("dropped").Inc()
		e.log.Warn("watch: the alert queue is full: alert dropped", "watch", w.ID)
	}
}

// Deliver sends the queued alerts, one at a time, until ctx ends. Run
// starts Workers of it; a test of the engine without Run starts its own.
func (e *Engine) Deliver(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case d := <-e.queue:
			e.send(ctx, d)
		}
	}
}

// send posts d, and tries again on failure, up to Attempts times.
func (e *Engine) send(ctx context.Context, d *delivery) {
	wait := e.opts.Backoff
	for attempt := 1; ; attempt++ {
		retry, err := e.post(ctx, d)
		if err == nil {
			e.metrics.alerts.WithLabelValues("sent").Inc()
			return
		}
		if !retry || attempt >= e.opts.Attempts || ctx.Err() != nil {
			e.metrics.alerts.WithLabelValues("failed").Inc()
			e.log.Warn("watch: alert not delivered", "watch", d.watch, "webhook", d.url, "attempts", attempt, "err", err)
			return
		}
		e.metrics.retries.Inc()
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			e.metrics.alerts.WithLabelValues("failed").Inc()
			return
		case <-t.C:
		}
		wait = min(2*wait, maxBackoff)
	}
}

// post makes one try; retry says whether another may succeed.
func (e *Engine) post(ctx context.Context, d *delivery) (retry bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.url, bytes.NewReader(d.body))
	if err != nil {
		return false, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "robotstxt-watch")
	req.Header.Set(WatchHeader, d.watch)
	req.Header.Set(DeliveryHeader, d.id)
	if d.secret != "" {
		req.Header.Set(SignatureHeader, Signature(d.secret, d.body))
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
