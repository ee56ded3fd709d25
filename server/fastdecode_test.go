package server

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// checkBodies are bodies of POST /v1/check: the common shapes the fast
// path reads, and everything it leaves to encoding/json.
var checkBodies = []string{
	`{"robots": "User-agent: *\nDisallow: /a\t\"q\"\\ \/ \b\f\r", "urls": ["/a", "https://example.com/é"], "crawlers": ["Googlebot"], "agents": ["MyBot"], "dialect": "google"}`,
	`{"origin":"example.com","urls":["/"]}`,
	` { "robots" : "" , "urls" : [ ] } ` + "\n\t\r",
	`{}`, `{ }`, `{"robots": null, "urls": null, "origin": null, "dialect": null, "crawlers": null, "agents": null}`,
	`{"robots": "a", "robots": "b", "urls": ["/x"], "urls": ["/y", "/z"]}`,
	`{"robots": "a", "robots": null}`, `{"urls": ["/x"], "urls": []}`,
	`{"robots": "<script>\u0041</script>", "urls": ["/\u00e9\u0026\uD83D\uDE00\ud83d", "\udc00\ud800\u0041", "\uD800\uD800"]}`,
	`{"urls": ["\u00"]}`, `{"urls": ["\uzzzz"]}`, `{"urls": ["\ud800\u"]}`,
	"{\"robots\": \"\xff\xfe\", \"urls\": [\"/\"]}", // invalid UTF-8
	`{"Robots": "x", "URLS": ["/"]}`,                // case-insensitive keys
	`{"robots": "x", "urls": ["/"], "colour": "red"}`,
	`{"robots": 5}`, `{"urls": "/"}`, `{"urls": [1]}`, `{"urls": [null]}`, `{"robots": true}`,
	`{"robots": "x"} {}`, `{"robots": "x"} x`, `{"robots": "x",}`, `{"robots" "x"}`, `{"robots": "x`, `{"robots": "a` + "\x01" + `"}`,
	`["/"]`, `null`, ``, `   `, "\xef\xbb\xbf{}", `{"robots": "\x"}`, `{"robots": "\`, `{"urls": ["/a",]}`, `{"urls": ["/a" "/b"]}`, `{,}`,
	`{"robots": "x", "urls": ["/"], "agents": ["a", "b"], "crawlers": []}`,
	`{"robots": "x", "urls": ["/"], "usage": true}`, `{"usage": false, "robots": "x"}`, `{"usage": null}`, `{"usage" : true , "usage": false}`,
	`{"usage": "true"}`, `{"usage": 1}`, `{"usage": tru}`, `{"usage": truex}`, `{"usage": [true]}`, `{"Usage": true}`, `{"usage": true}x`,
}

// TestDecodeCheckEqualsDecode: the fast path gives the values and the
// errors of encoding/json's.
func TestDecodeCheckEqualsDecode(t *testing.T) {
	fast := 0
	for _, body := range checkBodies {
		var slow, got CheckRequest
		slowErr := decodeFrom(bytes.NewReader([]byte(body)), &slow)
		gotErr := decodeCheckBody([]byte(body), &got)
		if !reflect.DeepEqual(slow, got) || !reflect.DeepEqual(slowErr, gotErr) {
			t.Errorf("%q:\n got %+v, %v\nwant %+v, %v", body, got, gotErr, slow, slowErr)
		}
		var p CheckRequest
		if parseCheck(body, &p) {
			fast++
		}
	}
	// A body with a member given twice is refused (checkMembers): the
	// fast path leaves it to decode's, which says so.
	if fast < 11 {
		t.Errorf("the fast path read %d bodies, want the 11 common ones at least", fast)
	}
}

func FuzzDecodeCheck(f *testing.F) {
	for _, b := range checkBodies {
		f.Add(b)
	}
	sc := newStringCache()
	f.Fuzz(func(t *testing.T, body string) {
		var slow, got CheckRequest
		slowErr := decodeFrom(bytes.NewReader([]byte(body)), &slow)
		gotErr := decodeCheckBody([]byte(body), &got)
		if !reflect.DeepEqual(slow, got) || !reflect.DeepEqual(slowErr, gotErr) {
			t.Errorf("%q:\n got %+v, %v\nwant %+v, %v", body, got, gotErr, slow, slowErr)
		}
		// With the string cache, twice: as it is, then with a long
		// robots.txt made of the body.
		long := `{"robots": "` + strings.Repeat(body, 1+minCachedString/(len(body)+1)) + `", "urls": ["/"]}`
		for _, b := range []string{body, body, long, long} {
			var slow, got CheckRequest
			slowErr := decodeFrom(bytes.NewReader([]byte(b)), &slow)
			gotErr := decodeCheckBodyCached([]byte(b), &got, sc)
			if !reflect.DeepEqual(slow, got) || !reflect.DeepEqual(slowErr, gotErr) {
				t.Errorf("cached %q:\n got %+v, %v\nwant %+v, %v", b, got, gotErr, slow, slowErr)
			}
		}
	})
}

// TestDecodeCheckLarge: a batch of 10,000 URLs of every kind decodes as
// encoding/json decodes it, through the fast path.
func TestDecodeCheckLarge(t *testing.T) {
	urls := make([]string, MaxURLs)
	for i := range urls {
		urls[i] = "/p/" + strings.Repeat("x", i%50) + "?q=\"" + string(rune('a'+i%26)) + "\"&é=\\"
	}
	body, _ := json.Marshal(map[string]any{"robots": strings.Repeat("User-agent: *\nDisallow: /p/x\n", 200), "urls": urls, "crawlers": []string{"Googlebot", "Bingbot"}})
	var slow, got CheckRequest
	if !parseCheck(string(body), &got) {
		t.Fatal("the fast path refused the batch")
	}
	if e := decodeFrom(bytes.NewReader(body), &slow); e != nil || !reflect.DeepEqual(slow, got) {
		t.Errorf("differs (%v)", e)
	}
}

// TestDecodeCheckEveryOffset: the bytes a string's fast scan stops at
// (quote, backslash, control, non-ASCII, invalid UTF-8) at every place in
// and across its eight-byte words decode as encoding/json decodes them.
func TestDecodeCheckEveryOffset(t *testing.T) {
	for _, special := range []string{`\"`, `\\`, `\n`, `\u00e9`, "\x01", "\x1f", " ", "\x7f", "é", "\xff", "😀", `"`, "!", "#", "[", "]", "\x00"} {
		for before := range 20 {
			for _, after := range []int{0, 1, 7, 8, 9} {
				s := strings.Repeat("a", before) + special + strings.Repeat("b", after)
				body := `{"robots": "` + s + `", "urls": ["/` + s + `"]}`
				var slow, got CheckRequest
				slowErr := decodeFrom(bytes.NewReader([]byte(body)), &slow)
				gotErr := decodeCheckBody([]byte(body), &got)
				if !reflect.DeepEqual(slow, got) || !reflect.DeepEqual(slowErr, gotErr) {
					t.Errorf("%q:\n got %+v, %v\nwant %+v, %v", body, got, gotErr, slow, slowErr)
				}
			}
		}
	}
}

// TestDecodeCheckStringCache: a long robots.txt read again from the cache
// has the value the scan gives, whatever the backslashes before its
// quotes; strings that do not unescape are never kept.
func TestDecodeCheckStringCache(t *testing.T) {
	sc := newStringCache()
	pad := strings.Repeat("User-agent: *\\nDisallow: /x\\n", 20)
	var robots []string
	for _, tail := range []string{``, `\\`, `\\\\`, `\"`, `\\\"`, `a\\\\\"b\"`, `\u00e9\/`, `\q`, `\u12`, "\x01", `\ud800`} {
		robots = append(robots, pad+tail, tail+pad, pad+tail+pad)
	}
	for round := range 3 {
		for _, r := range robots {
			for _, body := range []string{`{"robots": "` + r + `", "urls": ["/a"]}`, `{"urls": ["/a"], "robots": "` + r + `"}`, `{"robots": "` + r + `"` + ` "urls": ["/a"]}`} {
				var slow, got CheckRequest
				slowErr := decodeFrom(bytes.NewReader([]byte(body)), &slow)
				gotErr := decodeCheckBodyCached([]byte(body), &got, sc)
				if !reflect.DeepEqual(slow, got) || !reflect.DeepEqual(slowErr, gotErr) {
					t.Fatalf("round %d, %q:\n got %+v, %v\nwant %+v, %v", round, body, got, gotErr, slow, slowErr)
				}
			}
		}
	}
	// A good string just read is found without a scan.
	var req CheckRequest
	if e := decodeCheckBodyCached([]byte(`{"robots": "`+pad+`"}`), &req, sc); e != nil {
		t.Fatal(e)
	}
	if v, end, ok := sc.find(`"`+pad+`"`, 1); !ok || v != *req.Robots || end != len(pad)+1 {
		t.Error("a robots.txt just read is not in the cache")
	}
	for _, it := range sc.items {
		if strings.Contains(it.raw, `\q`) || strings.Contains(it.raw, `\u12`) || strings.Contains(it.raw, "\x01") {
			t.Errorf("a string that does not unescape is kept: %q", it.raw)
		}
	}
}

// TestDecodeCheckUsage: the usage option is read by the fast path, as a
// boolean or null; anything else is left to encoding/json, which names
// the field.
func TestDecodeCheckUsage(t *testing.T) {
	for body, want := range map[string]bool{
		`{"robots": "x", "urls": ["/"], "usage": true}`: true,
		`{"usage": false, "robots": "x"}`:               false,
		` { "usage" : true } `:                          true,
	} {
		var req CheckRequest
		if !parseCheck(body, &req) || req.Usage != want {
			t.Errorf("%s: fast path %+v, want usage %v", body, req, want)
		}
	}
	// Given twice: refused, whatever the second value.
	for _, body := range []string{`{"usage": true, "usage": null}`, `{"usage": true, "usage": true}`} {
		var req CheckRequest
		if parseCheck(body, &req) {
			t.Errorf("%s: read by the fast path", body)
		}
		if e := decodeCheckBody([]byte(body), &req); e == nil || e.Field != "usage" || !strings.Contains(e.Message, "given twice") {
			t.Errorf("%s: %+v", body, e)
		}
	}
	for _, body := range []string{`{"usage": "true"}`, `{"usage": 1}`, `{"usage": [true]}`} {
		var req CheckRequest
		if parseCheck(body, &req) {
			t.Errorf("%s: read by the fast path", body)
		}
		if e := decodeCheckBody([]byte(body), &req); e == nil || e.Field != "usage" || !strings.Contains(e.Message, "want a boolean") {
			t.Errorf("%s: %+v", body, e)
		}
	}
}
