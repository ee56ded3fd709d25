package guard

import (
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Respond answers r as d's action says, when it blocks (403, 402, 429,
// tarpit), and reports whether it did; for allow and log it writes
// nothing and returns false: the request goes on to the site.
func (g *Guard) Respond(w http.ResponseWriter, r *http.Request, d *Decision) bool {
	if !d.Action.Blocks() {
		return false
	}
	// The header values are built once and shared (net/http only reads
	// them; Header.Set and Add replace a value rather than write into
	// it), their keys already in canonical form: a refusal allocates
	// nothing for its header.
	h := w.Header()
	h["Content-Type"] = textPlain
	h["Cache-Control"] = noStore
	switch d.Action {
	case Action402:
		h["Crawler-Price"] = g.priceValue(d.Price)
		w.WriteHeader(http.StatusPaymentRequired)
	case Action429:
		h["Retry-After"] = secondsValue(d.RetryAfter)
		w.WriteHeader(http.StatusTooManyRequests)
	case ActionTarpit:
		g.tarpit(w, r, answerText(d))
		return true
	default:
		w.WriteHeader(http.StatusForbidden)
	}
	// The body is built in a buffer of a pool: a Writer keeps no slice
	// it is given.
	bp := answerBufs.Get().(*[]byte)
	b := appendAnswer((*bp)[:0], d)
	_, _ = w.Write(b)
	if cap(b) <= maxPooledAnswer {
		*bp = b
		answerBufs.Put(bp)
	}
	return true
}

// The header values every refusal carries.
var (
	textPlain = []string{"text/plain; charset=utf-8"}
	noStore   = []string{"no-store"}
)

// answerBufs are the buffers refusals' bodies are built in; one grown
// past maxPooledAnswer (a robots.txt line can be long) is not kept.
var answerBufs = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

const maxPooledAnswer = 4 << 10

// priceValue is the crawler-price header's value for price: the
// policy's, built once per policy, or a new one.
func (g *Guard) priceValue(price string) []string {
	if cp := g.pol.Load(); cp.price != nil && cp.price[0] == price {
		return cp.price
	}
	return []string{price}
}

// retryValues are the Retry-After values of 0 to 300 seconds, built
// once.
var retryValues = func() [][]string {
	v := make([][]string, 301)
	for i := range v {
		v[i] = []string{strconv.Itoa(i)}
	}
	return v
}()

// secondsValue is the Retry-After header's value for n seconds.
func secondsValue(n int) []string {
	if 0 <= n && n < len(retryValues) {
		return retryValues[n]
	}
	return []string{strconv.Itoa(n)}
}

// answerText is the body of a blocking answer: what decided, in words.
func answerText(d *Decision) string {
	return string(appendAnswer(nil, d))
}

// appendAnswer appends answerText(d) to b.
func appendAnswer(b []byte, d *Decision) []byte {
	b = append(b, d.Outcome.String()...)
	b = append(b, ": "...)
	b = append(b, d.Reason...)
	if d.Line != 0 {
		b = append(b, " (robots.txt line "...)
		b = strconv.AppendInt(b, int64(d.Line), 10)
		b = append(b, ": "...)
		b = append(b, d.LineText...)
		b = append(b, ')')
	}
	return append(b, '\n')
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
