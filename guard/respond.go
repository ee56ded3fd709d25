package guard

import (
	"net/http"
	"strconv"
	"time"
)

// Respond answers r as d's action says, when it blocks (403, 402, 429,
// tarpit), and reports whether it did; for allow and log it writes
// nothing and returns false: the request goes on to the site.
func (g *Guard) Respond(w http.ResponseWriter, r *http.Request, d *Decision) bool {
	if !d.Action.Blocks() {
		return false
	}
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	body := answerText(d)
	switch d.Action {
	case Action402:
		h.Set("crawler-price", d.Price)
		w.WriteHeader(http.StatusPaymentRequired)
	case Action429:
		h.Set("Retry-After", strconv.Itoa(d.RetryAfter))
		w.WriteHeader(http.StatusTooManyRequests)
	case ActionTarpit:
		g.tarpit(w, r, body)
		return true
	default:
		w.WriteHeader(http.StatusForbidden)
	}
	_, _ = w.Write([]byte(body))
	return true
}

// answerText is the body of a blocking answer: what decided, in words.
func answerText(d *Decision) string {
	s := d.Outcome.String() + ": " + d.Reason
	if d.Line != 0 {
		s += " (robots.txt line " + strconv.Itoa(d.Line) + ": " + d.LineText + ")"
	}
	return s + "\n"
}

// tarpit answers 403 slowly: the body a byte at a time over the policy's
// tarpit duration, or until the client goes. Past the policy's cap of
// connections held at once, it answers at once.
func (g *Guard) tarpit(w http.ResponseWriter, r *http.Request, body string) {
	t := g.pol.Load().p.Tarpit
	if t.Max <= 0 {
		t.Max = DefaultTarpitMax
	}
	if t.Duration <= 0 {
		t.Duration = DefaultTarpitDuration
	}
	if g.tarpits.Add(1) > int64(t.Max) {
		g.tarpits.Add(-1)
		if g.met != nil {
			g.met.tarpitFull.Inc()
		}
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(body))
		return
	}
	defer g.tarpits.Add(-1)
	w.WriteHeader(http.StatusForbidden)
	rc := http.NewResponseController(w)
	step := t.Duration / time.Duration(len(body))
	tick := time.NewTicker(max(step, time.Millisecond))
	defer tick.Stop()
	for i := 0; i < len(body); i++ {
		if _, err := w.Write([]byte{body[i]}); err != nil {
			return
		}
		if rc.Flush() != nil {
			// No flushing: the rest at once after the wait.
			select {
			case <-r.Context().Done():
			case <-time.After(t.Duration):
			}
			_, _ = w.Write([]byte(body[i+1:]))
			return
		}
		if i == len(body)-1 {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
		}
	}
}

// Tarpitted returns the connections held in the tarpit now.
func (g *Guard) Tarpitted() int { return int(g.tarpits.Load()) }
