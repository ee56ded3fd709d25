package fetch

import (
	"net/http"
	"strings"
	"time"
)

// strongAfter is how long before the answer's Date a Last-Modified time
// must be for a conditional request to send it back (RFC 9110 §8.8.2.2:
// a client may treat a Last-Modified as strong when it is at least 60
// seconds before the Date of the answer that carried it). A file changed
// within the same second as the fetch keeps its Last-Modified when it
// changes again: If-Modified-Since with that time would get 304 and keep
// the old copy.
const strongAfter = 60 * time.Second

// validatorsOf is what a later conditional request may send, from an
// answer's ETag, Last-Modified and Date headers; fetchedAt stands for the
// Date when the answer has none or an unreadable one. It is the one place
// that decides which validators are trusted:
//
//   - a Last-Modified is kept when it is at least strongAfter before the
//     Date; otherwise it is weak (the file may change again within the
//     second it names) and is not sent;
//   - an ETag is kept, except a weak one (W/"...") beside a weak
//     Last-Modified: such tags are usually made from the same time and
//     size, and change no more often.
func validatorsOf(etag, lastModified, date string, fetchedAt time.Time) Validators {
	v := Validators{ETag: etag}
	if lastModified == "" {
		return v
	}
	if strongDate(lastModified, date, fetchedAt) {
		v.LastModified = lastModified
	} else if strings.HasPrefix(etag, "W/") {
		v.ETag = ""
	}
	return v
}

// strongDate reports whether a Last-Modified may be sent back as
// If-Modified-Since: it reads, and is at least strongAfter before the
// answer's Date (or fetchedAt).
func strongDate(lastModified, date string, fetchedAt time.Time) bool {
	lm, err := http.ParseTime(lastModified)
	if err != nil {
		return false
	}
	now := fetchedAt
	if d, err := http.ParseTime(date); err == nil {
		now = d
	}
	return now.Sub(lm) >= strongAfter
}
