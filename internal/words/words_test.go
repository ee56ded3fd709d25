package words

import (
	"testing"
	"time"
)

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		word string
		want string
	}{
		{1, "line", "1 line"},
		{0, "line", "0 lines"},
		{2, "line not checked", "2 lines not checked"},
		{1, "line not checked", "1 line not checked"},
		{1, "byte", "1 byte"},
		{7, "byte", "7 bytes"},
		{2, "match", "2 matches"},
		{3, "watch", "3 watches"},
		{2, "process", "2 processes"},
		{2, "entry", "2 entries"},
		{2, "day", "2 days"},
		{2, "URL", "2 URLs"},
		{-1, "line", "-1 lines"},
	} {
		if got := Count(tc.n, tc.word); got != tc.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tc.n, tc.word, got, tc.want)
		}
	}
	if got := Count(uint64(1), "origin"); got != "1 origin" {
		t.Errorf("uint64: %q", got)
	}
	if got := Plural(int64(5), "warning"); got != "warnings" {
		t.Errorf("Plural: %q", got)
	}
}

func TestDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{15 * time.Minute, "15m"},
		{90 * time.Minute, "1h30m"},
		{time.Hour, "1h"},
		{720 * time.Hour, "720h"},
		{45 * time.Second, "45s"},
		{time.Hour + 5*time.Second, "1h5s"},
		{1500 * time.Millisecond, "1.5s"},
		{250 * time.Millisecond, "250ms"},
		{0, "0s"},
		{-5 * time.Minute, "-5m"},
	} {
		got := Duration(tc.d)
		if got != tc.want {
			t.Errorf("Duration(%v) = %q, want %q", tc.d, got, tc.want)
		}
		if back, err := time.ParseDuration(got); err != nil || back != tc.d {
			t.Errorf("Duration(%v) = %q, which parses as %v, %v", tc.d, got, back, err)
		}
	}
}
