//go:build wasip1

// Command wasm is the robotstxt library as a WebAssembly module (a WASI
// reactor) for JavaScript: the package in js/ loads it.
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o js/robotstxt.wasm ./bindings/wasm
//
// Its exports are thin shells over the bindings' engine (bindings/engine),
// as the C ABI's are. Strings cross through two buffers the module owns:
// the host writes a question's strings one after the other into the input
// buffer (rtx_input returns its address, grown to the size asked), then
// calls a function with their lengths; a function that answers with text
// (JSON, or an error message) writes it to the output buffer and returns
// its length (rtx_output returns its address). Handles are int32 ids into
// the engine's table; no Go pointer is kept by the host beyond the next
// call that may grow a buffer. A function returns -1 on error, with the
// message in the output buffer; a panic is recovered as an error.
package main

//lint:file-ignore U1000 the host calls these functions through go:wasmexport

import (
	"unsafe"

	"github.com/seed53c283f5/robotstxt/bindings/engine"
)

func main() {}

var in, out []byte

//go:wasmexport rtx_input
func rtxInput(n int32) uint32 {
	if n < 1 {
		n = 1
	}
	if cap(in) < int(n) {
		in = make([]byte, n)
	}
	in = in[:n]
	return uint32(uintptr(unsafe.Pointer(&in[0])))
}

//go:wasmexport rtx_output
func rtxOutput() uint32 {
	if cap(out) == 0 {
		out = make([]byte, 0, 4096)
	}
	return uint32(uintptr(unsafe.Pointer(unsafe.SliceData(out))))
}

// str is the input buffer's bytes [at, at+n) as a string borrowed for the
// call (the engine copies what it keeps); "" when out of range.
func str(at, n int32) string {
	if n <= 0 || at < 0 || int(at)+int(n) > len(in) {
		return ""
	}
	return unsafe.String(&in[at], n)
}

func bytesAt(at, n int32) []byte {
	if n <= 0 || at < 0 || int(at)+int(n) > len(in) {
		return nil
	}
	return in[at : at+n]
}

// answer writes b (or err's message) to the output buffer and returns its
// length, or -1 after an error.
func answer(b []byte, err error) int32 {
	if err != nil {
		out = append(out[:0], err.Error()...)
		return -1
	}
	out = append(out[:0], b...)
	return int32(len(out))
}

func handle(h int64, err error) int32 {
	if err == nil && h > 1<<31-1 {
		engine.Free(h)
		err = errTooMany
	}
	if err != nil {
		answer(nil, err)
		return -1
	}
	return int32(h)
}

type tooMany struct{}

func (tooMany) Error() string { return "robotstxt: handle numbers exhausted (2^31 parses)" }

var errTooMany error = tooMany{}

//go:wasmexport rtx_output_len
func rtxOutputLen() int32 { return int32(len(out)) }

//go:wasmexport rtx_parse
func rtxParse(n int32) int32 {
	h, err := engine.Parse(bytesAt(0, n))
	return handle(h, err)
}

// rtx_for_status reads the Content-Type (ctLen bytes) then the body.
//
//go:wasmexport rtx_for_status
func rtxForStatus(status, ctLen, n, dialect int32) int32 {
	h, policy, err := engine.ForStatus(int(status), str(0, ctLen), bytesAt(ctLen, n), int(dialect))
	if err == nil {
		out = append(out[:0], byte('0'+policy))
	}
	return handle(h, err)
}

// rtx_ask reads the agent then the URL; it returns line*2+allowed.
//
//go:wasmexport rtx_ask
func rtxAsk(h, agentLen, kind, urlLen, dialect int32) int32 {
	allowed, line, err := engine.Ask(int64(h), str(0, agentLen), int(kind), str(agentLen, urlLen), int(dialect))
	if err != nil {
		answer(nil, err)
		return -1
	}
	v := int32(line) << 1
	if allowed {
		v |= 1
	}
	return v
}

// rtx_allowed reads the agent then the URL; it returns 1 or 0.
//
//go:wasmexport rtx_allowed
func rtxAllowed(h, agentLen, kind, urlLen, dialect int32) int32 {
	allowed, err := engine.Allowed(int64(h), str(0, agentLen), int(kind), str(agentLen, urlLen), int(dialect))
	if err != nil {
		answer(nil, err)
		return -1
	}
	if allowed {
		return 1
	}
	return 0
}

// rtx_token writes the product token of the User-Agent header in the
// input buffer to the output buffer.
//
//go:wasmexport rtx_token
func rtxToken(n int32) int32 {
	t, err := engine.Token(str(0, n))
	return answer([]byte(t), err)
}

//go:wasmexport rtx_decide
func rtxDecide(h, agentLen, kind, urlLen, dialect int32) int32 {
	return answer(engine.Decide(int64(h), str(0, agentLen), int(kind), str(agentLen, urlLen), int(dialect)))
}

//go:wasmexport rtx_usage
func rtxUsage(h, agentLen, kind, urlLen, dialect int32) int32 {
	return answer(engine.Usage(int64(h), str(0, agentLen), int(kind), str(agentLen, urlLen), int(dialect)))
}

//go:wasmexport rtx_crawl_delay
func rtxCrawlDelay(h, agentLen, kind, dialect int32) int32 {
	return answer(engine.Pace(int64(h), str(0, agentLen), int(kind), int(dialect)))
}

//go:wasmexport rtx_info
func rtxInfo(h int32) int32 { return answer(engine.Info(int64(h))) }

//go:wasmexport rtx_dialect
func rtxDialect(n int32) int32 {
	d, err := engine.Dialect(str(0, n))
	if err != nil {
		answer(nil, err)
		return -1
	}
	return int32(d)
}

//go:wasmexport rtx_free
func rtxFree(h int32) { engine.Free(int64(h)) }

//go:wasmexport rtx_alive
func rtxAlive() int32 { return int32(engine.Alive()) }
