// Command capi is the C ABI of the robotstxt library, built as a shared
// library:
//
//	go build -buildmode=c-shared -o librobotstxt.so ./bindings/capi
//
// robotstxt.h, beside this file, declares its functions and their
// ownership rules. Every function is a thin shell over the bindings'
// engine (bindings/engine): it turns C strings into Go strings, calls the
// engine and turns the answer back into C values. No Go pointer crosses
// the boundary: a file is named by an integer handle into the engine's
// table, and every string returned is copied into memory from C's malloc.
// A panic is recovered by the engine and reported as an error.
package main

/*
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
*/
import "C"

import (
	"unsafe"

	"github.com/seed53c283f5/robotstxt/bindings/engine"
)

func main() {}

// borrow is the C bytes p[0:n] as a Go string, without a copy: valid
// only during the call (the engine copies what it keeps).
func borrow(p *C.char, n C.size_t) string {
	if p == nil || n == 0 {
		return ""
	}
	return unsafe.String((*byte)(unsafe.Pointer(p)), int(n))
}

// setErr stores err's message in *out (a C string the caller frees), or
// NULL when err is nil; nothing when out is NULL.
func setErr(out **C.char, err error) {
	if out == nil {
		return
	}
	if err == nil {
		*out = nil
		return
	}
	*out = C.CString(err.Error())
}

// cJSON returns b as a C string, or NULL after an error.
func cJSON(b []byte, err error, errOut **C.char) *C.char {
	setErr(errOut, err)
	if err != nil {
		return nil
	}
	return C.CString(string(b))
}

//export rtx_parse
func rtx_parse(body *C.char, n C.size_t, errOut **C.char) C.int64_t {
	h, err := engine.Parse(borrowBytes(body, n))
	setErr(errOut, err)
	if err != nil {
		return -1
	}
	return C.int64_t(h)
}

// borrowBytes is the C bytes p[0:n] as a Go slice over C memory: valid
// only during the call.
func borrowBytes(p *C.char, n C.size_t) []byte {
	if p == nil || n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(p)), int(n))
}

//export rtx_for_status
func rtx_for_status(status C.int, ct *C.char, ctLen C.size_t, body *C.char, n C.size_t, dialect C.int, policy *C.int, errOut **C.char) C.int64_t {
	h, p, err := engine.ForStatus(int(status), borrow(ct, ctLen), borrowBytes(body, n), int(dialect))
	setErr(errOut, err)
	if err != nil {
		return -1
	}
	if policy != nil {
		*policy = C.int(p)
	}
	return C.int64_t(h)
}

//export rtx_ask
func rtx_ask(h C.int64_t, agent *C.char, agentLen C.size_t, kind C.int, url *C.char, urlLen C.size_t, dialect C.int, errOut **C.char) C.int64_t {
	allowed, line, err := engine.Ask(int64(h), borrow(agent, agentLen), int(kind), borrow(url, urlLen), int(dialect))
	if err != nil {
		setErr(errOut, err)
		return -1
	}
	if errOut != nil {
		*errOut = nil
	}
	v := C.int64_t(line) << 1
	if allowed {
		v |= 1
	}
	return v
}

//export rtx_allowed
func rtx_allowed(h C.int64_t, agent *C.char, agentLen C.size_t, kind C.int, url *C.char, urlLen C.size_t, dialect C.int, errOut **C.char) C.int {
	allowed, err := engine.Allowed(int64(h), borrow(agent, agentLen), int(kind), borrow(url, urlLen), int(dialect))
	if err != nil {
		setErr(errOut, err)
		return -1
	}
	if errOut != nil {
		*errOut = nil
	}
	if allowed {
		return 1
	}
	return 0
}

//export rtx_decide
func rtx_decide(h C.int64_t, agent *C.char, agentLen C.size_t, kind C.int, url *C.char, urlLen C.size_t, dialect C.int, errOut **C.char) *C.char {
	b, err := engine.Decide(int64(h), borrow(agent, agentLen), int(kind), borrow(url, urlLen), int(dialect))
	return cJSON(b, err, errOut)
}

//export rtx_crawl_delay
func rtx_crawl_delay(h C.int64_t, agent *C.char, agentLen C.size_t, kind C.int, dialect C.int, errOut **C.char) *C.char {
	b, err := engine.Pace(int64(h), borrow(agent, agentLen), int(kind), int(dialect))
	return cJSON(b, err, errOut)
}

//export rtx_sitemaps
func rtx_sitemaps(h C.int64_t, errOut **C.char) *C.char {
	b, err := engine.Sitemaps(int64(h))
	return cJSON(b, err, errOut)
}

//export rtx_info
func rtx_info(h C.int64_t, errOut **C.char) *C.char {
	b, err := engine.Info(int64(h))
	return cJSON(b, err, errOut)
}

//export rtx_usage
func rtx_usage(h C.int64_t, agent *C.char, agentLen C.size_t, kind C.int, url *C.char, urlLen C.size_t, dialect C.int, errOut **C.char) *C.char {
	b, err := engine.Usage(int64(h), borrow(agent, agentLen), int(kind), borrow(url, urlLen), int(dialect))
	return cJSON(b, err, errOut)
}

//export rtx_dialect
func rtx_dialect(name *C.char, n C.size_t, errOut **C.char) C.int {
	d, err := engine.Dialect(borrow(name, n))
	setErr(errOut, err)
	if err != nil {
		return -1
	}
	return C.int(d)
}

//export rtx_free
func rtx_free(h C.int64_t) { engine.Free(int64(h)) }

//export rtx_free_string
func rtx_free_string(s *C.char) {
	if s != nil {
		C.free(unsafe.Pointer(s))
	}
}

//export rtx_alive
func rtx_alive() C.int64_t { return C.int64_t(engine.Alive()) }
