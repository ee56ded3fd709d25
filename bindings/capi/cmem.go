package main

/*
#include <stdlib.h>
*/
import "C"

import "unsafe"

// cbuf is bytes in C memory, as a host passes them: what FuzzABI feeds
// the exported functions (test files cannot use cgo themselves).
type cbuf struct {
	p *C.char
	n C.size_t
}

// newCBuf copies b into memory from C's malloc.
func newCBuf(b []byte) cbuf {
	if len(b) == 0 {
		return cbuf{}
	}
	return cbuf{(*C.char)(C.CBytes(b)), C.size_t(len(b))}
}

func (c cbuf) free() {
	if c.p != nil {
		C.free(unsafe.Pointer(c.p))
	}
}

// errSlot is a char ** in C memory for the err arguments.
type errSlot struct{ p **C.char }

func newErrSlot() errSlot {
	return errSlot{(**C.char)(C.calloc(1, C.size_t(unsafe.Sizeof((*C.char)(nil)))))}
}

// take returns the message stored in the slot ("" for NULL) and frees it
// with rtx_free_string, as a host does.
func (e errSlot) take() string {
	if *e.p == nil {
		return ""
	}
	s := C.GoString(*e.p)
	rtx_free_string(*e.p)
	*e.p = nil
	return s
}

func (e errSlot) free() { C.free(unsafe.Pointer(e.p)) }

// goString returns a C string the library returned, and frees it.
func goString(p *C.char) (string, bool) {
	if p == nil {
		return "", false
	}
	s := C.GoString(p)
	rtx_free_string(p)
	return s, true
}

// cint converts a Go int to a C int for FuzzABI (truncating, as a C host's
// int would).
func cint(v int) C.int { return C.int(int32(v)) }

// c64 converts a handle to the ABI's int64_t.
func c64(h int64) C.int64_t { return C.int64_t(h) }

// cstring is a C string the library returns (for FuzzABI).
type cstring = *C.char
