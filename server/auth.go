package server

import (
	"crypto/subtle"
	"fmt"
	"net/http"
	"strings"
	"time"

	"golang.org/x/time/rate"
)

// How wrong tokens are limited: each client (by IP address, an IPv6 /64
// counting as one) may present AuthFailureBurst wrong tokens at once, and
// one more every AuthFailureEvery; past that, every request of the client
// that bears a token, the right one too, is answered 429 until the bucket
// refills, so that guessing learns nothing.
const (
	AuthFailureBurst = 10
	AuthFailureEvery = 6 * time.Second
)

// tokenState is what a request's Authorization header holds.
type tokenState int

const (
	noToken    tokenState = iota // no header, or another scheme than Bearer
	wrongToken                   // a bearer token that is not the server's
	rightToken
)

// bearer returns the token of an Authorization header of the Bearer
// scheme, whose name is case-insensitive (RFC 9110, section 11.1).
func bearer(header string) (string, bool) {
	const scheme = "Bearer"
	if len(header) <= len(scheme) || !strings.EqualFold(header[:len(scheme)], scheme) || header[len(scheme)] != ' ' {
		return "", false
	}
	return strings.TrimSpace(header[len(scheme):]), true
}

// token reports what r's Authorization header holds, comparing the token
// in constant time.
func (s *Server) token(r *http.Request) tokenState {
	got, ok := bearer(r.Header.Get("Authorization"))
	if !ok {
		return noToken
	}
	if subtle.ConstantTimeCompare([]byte(got), []byte(s.opts.Token)) != 1 {
		return wrongToken
	}
	return rightToken
}

// authorize reports whether r may go on when the server has a token, and
// otherwise answers it: 401 without the token (saying whether it was
// missing or wrong), 429 for a client past its wrong tokens. With no token
// set every request may.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) bool {
	if s.opts.Token == "" {
		return true
	}
	state := s.token(r)
	if state == noToken {
		w.Header().Set("WWW-Authenticate", `Bearer realm="robotstxt"`)
		writeError(w, &Error{Status: http.StatusUnauthorized, Message: "this API needs a bearer token (Authorization: Bearer TOKEN)"})
		return false
	}
	now := s.opts.Now()
	ip := s.clientOf(r)
	if blocked, retry := s.authFailures.exhausted(ip, now); blocked {
		s.tooManyFailures(w, retry)
		return false
	}
	if state == rightToken {
		return true
	}
	if ok, retry := s.authFailures.allow(ip, now); !ok {
		s.tooManyFailures(w, retry)
		return false
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="robotstxt", error="invalid_token"`)
	writeError(w, &Error{Status: http.StatusUnauthorized, Message: "the bearer token is not valid"})
	return false
}

func (s *Server) tooManyFailures(w http.ResponseWriter, retry time.Duration) {
	w.Header().Set("Retry-After", retrySeconds(retry))
	writeError(w, &Error{Status: http.StatusTooManyRequests, Message: fmt.Sprintf("too many wrong tokens from this client (at most %d, then one every %v); retry later", AuthFailureBurst, AuthFailureEvery)})
}

// retrySeconds is a Retry-After value: whole seconds, at least 1.
func retrySeconds(d time.Duration) string {
	return fmt.Sprint(max(1, int((d+time.Second-1)/time.Second)))
}

// newAuthLimiter is the bucket of wrong tokens of each client.
func newAuthLimiter(maxClients int) *limiter {
	return newLimiter(rate.Every(AuthFailureEvery), AuthFailureBurst, maxClients)
}

// apiGate is the bearer token and the rate limit of the /v1/ routes.
func (s *Server) apiGate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.authorize(w, r) {
			return
		}
		if s.opts.Rate > 0 {
			if ok, retry := s.limits.allow(s.clientOf(r), s.opts.Now()); !ok {
				w.Header().Set("Retry-After", retrySeconds(retry))
				writeError(w, &Error{Status: http.StatusTooManyRequests, Message: fmt.Sprintf("too many requests from this client (at most %g a second, %d at once); retry later", float64(s.opts.Rate), s.opts.Burst)})
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// tokenGate is the bearer token alone, for /metrics.
func (s *Server) tokenGate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.authorize(w, r) {
			next.ServeHTTP(w, r)
		}
	})
}
