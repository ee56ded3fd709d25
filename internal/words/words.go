// Package words writes counts with their nouns ("1 line", "2 lines") and
// durations as people write them ("15m", "1h30m"): the one helper every
// text output of the command, the service and the tester uses for each.
// (The core package, which imports only the standard library, has its own
// few words.)
package words

import (
	"strconv"
	"time"
)

// Integer is the types a count comes in.
type Integer interface {
	~int | ~int32 | ~int64 | ~uint | ~uint32 | ~uint64
}

// Plural is word as it goes with a count of n: word itself for 1, else its
// plural (line → lines, match → matches, entry → entries). A phrase's
// first word is the noun: Plural(2, "line not checked") is "lines not
// checked".
func Plural[N Integer](n N, word string) string {
	if n == 1 {
		return word
	}
	head, tail := word, ""
	for i := 0; i < len(word); i++ {
		if word[i] == ' ' {
			head, tail = word[:i], word[i:]
			break
		}
	}
	return pluralOf(head) + tail
}

// Count is n and its noun: "1 line", "0 lines", "3 lines not checked".
func Count[N Integer](n N, word string) string {
	var s string
	if n < 0 {
		s = strconv.FormatInt(int64(n), 10)
	} else {
		s = strconv.FormatUint(uint64(n), 10)
	}
	return s + " " + Plural(n, word)
}

// pluralOf is the plural of an English noun: +es after s, x, z, ch and sh,
// y → ies after a consonant, else +s. A word in capitals or ending in a
// digit (URL, 4xx) takes s alone.
func pluralOf(word string) string {
	n := len(word)
	if n == 0 {
		return word
	}
	last := word[n-1]
	if last < 'a' || last > 'z' {
		return word + "s"
	}
	switch {
	case last == 's' || last == 'x' || last == 'z',
		n >= 2 && (word[n-2:] == "ch" || word[n-2:] == "sh"):
		return word + "es"
	case last == 'y' && n >= 2 && !isVowel(word[n-2]):
		return word[:n-1] + "ies"
	}
	return word + "s"
}

func isVowel(c byte) bool {
	switch c {
	case 'a', 'e', 'i', 'o', 'u':
		return true
	}
	return false
}

// Duration is d as people write it, and as Go's durations parse: the
// units that are not zero, "15m" for 15m0s, "1h30m" for 1h30m0s, "1h" for
// 1h0m0s, "45s"; under a second, time.Duration's own form ("250ms").
func Duration(d time.Duration) string {
	if d < time.Second && d > -time.Second {
		return d.String()
	}
	var b []byte
	if d < 0 {
		b = append(b, '-')
		d = -d
	}
	h, m := d/time.Hour, d%time.Hour/time.Minute
	s := d % time.Minute
	if h > 0 {
		b = strconv.AppendInt(b, int64(h), 10)
		b = append(b, 'h')
	}
	if m > 0 {
		b = strconv.AppendInt(b, int64(m), 10)
		b = append(b, 'm')
	}
	if s > 0 {
		b = append(b, s.String()...)
	}
	return string(b)
}
