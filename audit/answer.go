package audit

import (
	"net/http"
	"strconv"

	"github.com/seed53c283f5/robotstxt/fetch"
)

// Answer is how the site answered a logged request, by its status: the
// content served, access refused, or the content offered at a price (pay
// per crawl's 402 Payment Required, which is neither).
type Answer uint8

// The answers. AnswerOf decides them.
const (
	// Unanswered: the line has no status, or one that is none of the
	// others (404, 429, 5xx...): not counted.
	Unanswered Answer = iota
	// Served: 1xx, 2xx or 3xx (the content, a redirect, not modified).
	Served
	// Refused: 401, 403, 407 or 451: access refused.
	Refused
	// Priced: 402 Payment Required: offered at a price (pay per crawl;
	// fetch.PaymentOf reads it), not refused.
	Priced
)

// String returns "served", "refused", "priced" or "unanswered".
func (a Answer) String() string {
	switch a {
	case Unanswered:
		return "unanswered"
	case Served:
		return "served"
	case Refused:
		return "refused"
	case Priced:
		return "priced"
	}
	return "answer(" + strconv.Itoa(int(a)) + ")"
}

// AnswerOf says how a request logged with HTTP status code was answered.
// A 402 is Priced, as fetch.PaymentOf reads it (the log keeps no headers:
// the price is not known).
func AnswerOf(code int) Answer {
	switch {
	case fetch.PaymentOf(code, nil).Status == fetch.PaymentRequired:
		return Priced
	case code >= 100 && code < 400:
		return Served
	case code == http.StatusUnauthorized, code == http.StatusForbidden,
		code == http.StatusProxyAuthRequired, code == http.StatusUnavailableForLegalReasons:
		return Refused
	}
	return Unanswered
}
