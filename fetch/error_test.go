package fetch

import (
	"errors"
	"testing"
)

// An error names its step once, also when the cause names it itself, as
// crypto/tls's errors do.
func TestErrorNamesStepOnce(t *testing.T) {
	for _, tt := range []struct {
		cause, want string
	}{
		{"tls: failed to verify certificate", "fetch: https://example.com/robots.txt: tls: failed to verify certificate"},
		{"connection refused", "fetch: https://example.com/robots.txt: tls: connection refused"},
	} {
		e := &Error{URL: "https://example.com/robots.txt", Step: StepTLS, Err: errors.New(tt.cause)}
		if got := e.Error(); got != tt.want {
			t.Errorf("%q, want %q", got, tt.want)
		}
	}
}
