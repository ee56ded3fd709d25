package bulk

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/internal/termesc"
	"github.com/seed53c283f5/robotstxt/internal/usagejson"
)

// bulkFormatBatch formats the results of the batch's items that need no
// waiting: bad lines, and URLs whose origin's answer was there when they
// were read. The origins' fetches format the others (the waiters).
func bulkFormatBatch(cfg *config, b *bulkBatch, org *origins) {
	defer close(b.done)
	b.out = (*bulkBufs.Get().(*[]byte))[:0]
	n := 0
	for i := range b.items {
		it := &b.items[i]
		if it.waiting {
			continue
		}
		it.start = len(b.out)
		b.out = bulkResults(b.out, cfg, it)
		it.end = len(b.out)
		it.state, it.ans = nil, nil
		it.ready.Store(true)
		n++
	}
	org.done.Add(int64(n))
}

// bulkResults appends the results of one item, one per subject, and sets
// its stats. The results of the line whose question asked for the origin
// give its answer's source; the later ones say "cache" for an answer
// fetched in this run.
func bulkResults(buf []byte, cfg *config, it *bulkItem) []byte {
	var a *cache.Answer
	errText := it.err
	st, oa := it.state, it.ans
	var source, sourceJSON string
	if st != nil {
		switch {
		case oa == nil:
			errText = fmt.Sprintf("line %d: no answer for %s: %v", it.lineNo, st.origin, st.err)
		case it.lineNo == st.firstLine:
			a = oa.answer
			source, sourceJSON = oa.sourceFirstText, oa.sourceFirstJSON
			it.stats.first = a.Source
			it.stats.priced = oa.payment.Status == fetch.PaymentRequired
		default:
			a = oa.answer
			source, sourceJSON = oa.sourceLaterText, oa.sourceLaterJSON
		}
	}
	it.stats.answered = a != nil
	if errText != "" {
		it.stats.bad = true
	}
	origin := ""
	if st != nil {
		origin = st.originText
	}
	for i := range cfg.subjects {
		s := &cfg.subjects[i]
		var dec robotstxt.Decision
		var ua robotstxt.UsageAnswer
		policy := ""
		if a != nil {
			sa := &oa.subjects[i]
			dec = sa.decider.Decide(it.norm)
			if cfg.usage {
				ua = sa.decider.Usage(it.norm)
			}
			policy = sa.policyText
			it.stats.count(sa.policy)
			if dec.Allowed {
				it.stats.allowed++
			}
		}
		rule := ""
		if dec.HasRule() {
			rule = dec.Rule.Text
		}
		who := "agent"
		if s.Crawler != nil {
			who = "crawler"
		}
		if cfg.csv {
			if cfg.anyOrder {
				buf = strconv.AppendInt(buf, int64(it.lineNo), 10)
				buf = append(buf, ',')
			}
			buf = appendCSV(buf, it.url)
			buf = append(buf, ',')
			buf = appendCSV(buf, s.Label)
			buf = append(buf, ',')
			if a != nil {
				buf = strconv.AppendBool(buf, dec.Allowed)
			}
			buf = append(buf, ',')
			if dec.Line() > 0 {
				buf = strconv.AppendInt(buf, int64(dec.Line()), 10)
			}
			for _, f := range [...]string{rule, origin, policy, dec.Reason, source, errText} { // then payment
				buf = append(buf, ',')
				buf = appendCSV(buf, f)
			}
			buf = append(buf, ',')
			if a != nil {
				buf = appendCSV(buf, oa.paymentCSV)
			}
			if cfg.usage {
				buf = appendUsageCSV(buf, a != nil && dec.Allowed, ua)
			}
			buf = append(buf, '\n')
			continue
		}
		buf = append(buf, '{')
		if cfg.anyOrder {
			buf = append(buf, `"input_line":`...)
			buf = strconv.AppendInt(buf, int64(it.lineNo), 10)
			buf = append(buf, ',')
		}
		buf = append(buf, `"url":`...)
		buf = appendJSONString(buf, it.url)
		buf = append(buf, ',')
		buf = append(buf, it.extra...)
		buf = append(buf, '"')
		buf = append(buf, who...)
		buf = append(buf, `":`...)
		buf = appendJSONString(buf, s.Label)
		if errText != "" {
			buf = append(buf, `,"allowed":null,"error":`...)
			buf = appendJSONString(buf, errText)
			if origin != "" {
				buf = append(buf, `,"origin":`...)
				buf = append(buf, st.originJSON...)
			}
			buf = append(buf, "}\n"...)
			continue
		}
		buf = append(buf, `,"allowed":`...)
		buf = strconv.AppendBool(buf, dec.Allowed)
		buf = append(buf, `,"line":`...)
		buf = strconv.AppendInt(buf, int64(dec.Line()), 10)
		buf = append(buf, `,"rule":`...)
		buf = appendJSONString(buf, rule)
		buf = append(buf, `,"origin":`...)
		buf = append(buf, st.originJSON...)
		buf = append(buf, `,"policy":`...)
		buf = append(buf, oa.subjects[i].policyJSON...)
		buf = append(buf, `,"reason":`...)
		buf = appendJSONString(buf, dec.Reason)
		buf = append(buf, `,"source":`...)
		buf = append(buf, sourceJSON...)
		buf = append(buf, oa.paymentJSON...)
		if cfg.usage {
			u, sig := usagejson.Encode(ua, dec.Allowed)
			buf = append(buf, `,"usage":`...)
			buf = append(buf, u...)
			buf = append(buf, `,"signals":`...)
			buf = append(buf, sig...)
		}
		buf = append(buf, "}\n"...)
	}
	return buf
}

// appendUsageCSV appends the Usage columns of a result: train_ai and
// search ("y", "n", "unknown"; empty when the URL may not be crawled), the
// deciding Content-Usage lines (space-separated), and the Content-Signal
// line's pairs as written ("" when none).
func appendUsageCSV(buf []byte, allowed bool, ua robotstxt.UsageAnswer) []byte {
	buf = append(buf, ',')
	if allowed {
		buf = append(buf, ua.Usage.TrainAI().String()...)
	}
	buf = append(buf, ',')
	if allowed {
		buf = append(buf, ua.Usage.Search().String()...)
	}
	buf = append(buf, ',')
	for i, n := range ua.Usage.Lines {
		if i > 0 {
			buf = append(buf, ' ')
		}
		buf = strconv.AppendInt(buf, int64(n), 10)
	}
	buf = append(buf, ',')
	var pairs []string
	for _, p := range ua.Signals.Pairs {
		pairs = append(pairs, p.Key+"="+p.Value)
	}
	return appendCSV(buf, strings.Join(pairs, ", "))
}

const hexDigits = "0123456789abcdef"

// jsonPlain says which bytes a JSON string holds as they are: printable
// ASCII but the quote and the backslash (DEL is not printable).
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendJSONString appends s as a JSON string; invalid UTF-8 becomes
// U+FFFD, as encoding/json writes it. Control characters are \u escapes,
// DEL and C1 (U+0080 to U+009F) too, which encoding/json writes as they
// are: as jsonWriter writes the other commands' JSON, so that no terminal
// obeys what a URL or a robots.txt file holds.
func appendJSONString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if jsonPlain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			buf = append(buf, s[start:i]...)
			switch c {
			case '"', '\\':
				buf = append(buf, '\\', c)
			case '\n':
				buf = append(buf, '\\', 'n')
			case '\r':
				buf = append(buf, '\\', 'r')
			case '\t':
				buf = append(buf, '\\', 't')
			default:
				buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' || r <= 0x9f {
			buf = append(buf, s[start:i]...)
			buf = append(buf, '\\', 'u', hexDigits[r>>12&0xF], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

// appendCSV appends one CSV field, quoted when it needs to be (RFC 4180).
// CSV is read by spreadsheets and shown on terminals: control characters
// are shown as robotstxt check shows them (termesc.String: \xNN, C1 as
// \u00NN), and a field that starts with = + - @, a tab or a carriage
// return, which a spreadsheet may take for a formula, gets a leading '
// (OWASP, "CSV Injection").
func appendCSV(buf []byte, s string) []byte {
	if s == "" {
		return buf
	}
	if c := s[0]; c != ' ' && c != '=' && c != '+' && c != '-' && c != '@' {
		i := 0
		for i < len(s) && csvPlain[s[i]] {
			i++
		}
		if i == len(s) {
			return append(buf, s...)
		}
	}
	s = termesc.String(s)
	if strings.IndexByte("=+-@\t\r", s[0]) >= 0 {
		s = "'" + s
	}
	if !strings.ContainsAny(s, ",\"\r\n") && s[0] != ' ' && s[0] != '\t' {
		return append(buf, s...)
	}
	buf = append(buf, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			buf = append(buf, '"')
		}
		buf = append(buf, s[i])
	}
	return append(buf, '"')
}

// csvPlain says which bytes a CSV field holds as they are, wherever they
// are: printable ASCII but the comma and the quote.
var csvPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != ',' && c != '"'
	}
	return t
}()

// bulkWho is the CSV column of the subjects: "crawler" when one is a
// crawler of the table, else "agent".
func bulkWho(subjects []Subject) string {
	for _, s := range subjects {
		if s.Crawler != nil {
			return "crawler"
		}
	}
	return "agent"
}
