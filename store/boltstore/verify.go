package boltstore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math/bits"
	"os"
)

// Checking a file before bbolt maps it.
//
// bbolt maps the file into memory and follows the page numbers it finds
// there without checking them against the file's length: a file cut short,
// or a page number changed by a damaged sector, makes it read past the end
// of the file (SIGBUS) or of the mapping (SIGSEGV), which no recover()
// catches, or loop. So Open first reads the file with ordinary reads and
// checks everything bbolt will follow: the two meta pages (magic, version,
// checksum), the file's length against the page count of the meta page
// bbolt will use, the free list, and every page reachable from the root
// bucket (its number below the page count, its header naming it, its
// elements inside it, no page reached twice). Only a file that passes is
// handed to bbolt, whose own consistency check (Tx.Check) then runs on it.

// The bbolt file format (version 2), in the machine's byte order.
const (
	boltMagic        = 0xED0CDAED
	boltVersion      = 2
	pageHeaderSize   = 16 // id u64, flags u16, count u16, overflow u32
	elementSize      = 16 // branch: pos u32, ksize u32, pgid u64; leaf: flags u32, pos u32, ksize u32, vsize u32
	bucketHeaderSize = 16 // root pgid u64, sequence u64
	metaOffset       = pageHeaderSize
	metaSize         = 64 // magic, version, pageSize, flags u32; root, sequence, freelist, pgid, txid, checksum u64
	metaSumSize      = 56 // the bytes the checksum covers

	branchPage   = 0x01
	leafPage     = 0x02
	metaPage     = 0x04
	freelistPage = 0x10
	bucketLeaf   = 0x01

	noFreelist = ^uint64(0)
)

var ne = binary.NativeEndian

// errNoMeta is verifyFile's error for a file in which no bbolt meta page
// is left, not even a damaged one: not a bbolt file.
var errNoMeta = errors.New("no bbolt meta page")

// meta is a bbolt meta page, read.
type meta struct {
	pageSize uint64
	root     uint64
	freelist uint64
	pgid     uint64 // pages in use: the high water mark
	txid     uint64
}

// readMeta reads the meta page at off. magic reports whether the bytes
// there start as a meta page does; err is nil only for a valid one.
func readMeta(f *os.File, off int64) (m meta, magic bool, err error) {
	var b [pageHeaderSize + metaSize]byte
	n, _ := f.ReadAt(b[:], off)
	p := b[metaOffset:]
	if n < metaOffset+4 || ne.Uint32(p[0:]) != boltMagic {
		return m, false, fmt.Errorf("meta page at offset %d: no bbolt magic number", off)
	}
	if n < len(b) {
		return m, true, fmt.Errorf("meta page at offset %d: cut short", off)
	}
	if v := ne.Uint32(p[4:]); v != boltVersion {
		return m, true, fmt.Errorf("meta page at offset %d: format version %d, not %d", off, v, boltVersion)
	}
	h := fnv.New64a()
	h.Write(p[:metaSumSize])
	if h.Sum64() != ne.Uint64(p[metaSumSize:]) {
		return m, true, fmt.Errorf("meta page at offset %d: checksum mismatch", off)
	}
	m = meta{
		pageSize: uint64(ne.Uint32(p[8:])),
		root:     ne.Uint64(p[16:]),
		freelist: ne.Uint64(p[32:]),
		pgid:     ne.Uint64(p[40:]),
		txid:     ne.Uint64(p[48:]),
	}
	return m, true, nil
}

// verifyFile checks that bbolt can map and walk f without reading outside
// it (see above). It returns nil for an empty file (bbolt writes a new
// one), errNoMeta for a file that has no bbolt meta page at all, and
// another error, saying what is wrong, for a damaged bbolt file.
func verifyFile(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	if size == 0 {
		return nil
	}
	// Meta page 0 is at the start; meta page 1 one page further, where
	// the page size read from page 0 says, or, page 0 being damaged, at
	// any of the page sizes bbolt tries.
	var metas []meta
	sawMagic := false
	var firstErr error
	m0, magic, err0 := readMeta(f, 0)
	sawMagic = sawMagic || magic
	offsets := []int64{}
	if err0 == nil {
		metas = append(metas, m0)
		offsets = append(offsets, int64(m0.pageSize))
	} else {
		firstErr = err0
		for i := range 15 {
			offsets = append(offsets, 1024<<i)
		}
	}
	for _, off := range offsets {
		if off <= 0 || off >= size {
			break
		}
		m1, magic, err1 := readMeta(f, off)
		sawMagic = sawMagic || magic
		if err1 == nil {
			metas = append(metas, m1)
			break
		}
		if firstErr == nil && magic {
			firstErr = err1
		}
	}
	if len(metas) == 0 {
		if !sawMagic {
			return errNoMeta
		}
		return fmt.Errorf("both meta pages damaged: %v", firstErr)
	}
	// bbolt uses the valid meta page with the higher transaction id.
	m := metas[0]
	for _, o := range metas[1:] {
		if o.pageSize != m.pageSize {
			return fmt.Errorf("the meta pages disagree on the page size (%d and %d)", m.pageSize, o.pageSize)
		}
		if o.txid > m.txid {
			m = o
		}
	}
	ps := m.pageSize
	if ps < 1024 || ps > 1<<24 || bits.OnesCount64(ps) != 1 {
		return fmt.Errorf("meta page: page size %d", ps)
	}
	if m.pgid < 4 || m.pgid > uint64(size)/ps {
		return fmt.Errorf("file cut short: %d bytes, its meta page counts %d pages of %d bytes", size, m.pgid, ps)
	}
	if m.freelist == noFreelist {
		return errors.New("meta page: no free list (this program always writes one)")
	}
	w := &walker{f: f, ps: ps, pgid: m.pgid, seen: make([]uint64, (m.pgid+63)/64)}
	w.mark(0, 0) // the meta pages
	w.mark(1, 0)
	if err := w.freelist(m.freelist); err != nil {
		return err
	}
	return w.bucket(m.root)
}

// walker checks the pages reachable from the root bucket.
type walker struct {
	f     *os.File
	ps    uint64   // page size
	pgid  uint64   // page count
	seen  []uint64 // a bit per page reached
	buf   []byte
	stack []uint64 // pages to check
}

// mark records pages id to id+overflow as reached; false if one already was.
func (w *walker) mark(id, overflow uint64) bool {
	ok := true
	for p := id; p <= id+overflow; p++ {
		bit := uint64(1) << (p % 64)
		if w.seen[p/64]&bit != 0 {
			ok = false
		}
		w.seen[p/64] |= bit
	}
	return ok
}

// page reads page id, with its overflow pages, and checks its header.
func (w *walker) page(id uint64, what string) ([]byte, error) {
	if id < 2 || id >= w.pgid {
		return nil, fmt.Errorf("%s: page %d out of range [2, %d)", what, id, w.pgid)
	}
	var h [pageHeaderSize]byte
	if _, err := w.f.ReadAt(h[:], int64(id*w.ps)); err != nil {
		return nil, fmt.Errorf("page %d: %v", id, err)
	}
	if got := ne.Uint64(h[0:]); got != id {
		return nil, fmt.Errorf("page %d: its header says page %d", id, got)
	}
	overflow := uint64(ne.Uint32(h[12:]))
	if overflow >= w.pgid-id {
		return nil, fmt.Errorf("page %d: %d overflow pages, past the last page %d", id, overflow, w.pgid-1)
	}
	if !w.mark(id, overflow) {
		return nil, fmt.Errorf("page %d: reached twice", id)
	}
	n := (overflow + 1) * w.ps
	if uint64(cap(w.buf)) < n {
		w.buf = make([]byte, n)
	}
	b := w.buf[:n]
	if _, err := w.f.ReadAt(b, int64(id*w.ps)); err != nil {
		return nil, fmt.Errorf("page %d: %v", id, err)
	}
	return b, nil
}

// freelist checks the free-list page.
func (w *walker) freelist(id uint64) error {
	b, err := w.page(id, "free list")
	if err != nil {
		return err
	}
	if flags := ne.Uint16(b[8:]); flags != freelistPage {
		return fmt.Errorf("free list page %d: flags %#x", id, flags)
	}
	start, count := uint64(pageHeaderSize), uint64(ne.Uint16(b[10:]))
	if count == 0xFFFF {
		count = ne.Uint64(b[pageHeaderSize:])
		start += 8
	}
	if count > (uint64(len(b))-start)/8 {
		return fmt.Errorf("free list page %d: %d entries do not fit", id, count)
	}
	for i := range count {
		if p := ne.Uint64(b[start+8*i:]); p < 2 || p >= w.pgid {
			return fmt.Errorf("free list page %d: page %d out of range", id, p)
		}
	}
	return nil
}

// bucket checks the tree of pages under a bucket's root page, and the
// buckets nested in it.
func (w *walker) bucket(root uint64) error {
	w.stack = append(w.stack[:0], root)
	for len(w.stack) > 0 {
		id := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		b, err := w.page(id, "bucket tree")
		if err != nil {
			return err
		}
		if err := w.node(b, id, false); err != nil {
			return err
		}
	}
	return nil
}

// node checks a branch or leaf page b (page id, or an inline bucket's page
// when inline is true), queueing the pages it names.
func (w *walker) node(b []byte, id uint64, inline bool) error {
	where := fmt.Sprintf("page %d", id)
	if inline {
		where = fmt.Sprintf("inline bucket in page %d", id)
	}
	if len(b) < pageHeaderSize {
		return fmt.Errorf("%s: cut short", where)
	}
	flags, count := ne.Uint16(b[8:]), uint64(ne.Uint16(b[10:]))
	if count > (uint64(len(b))-pageHeaderSize)/elementSize {
		return fmt.Errorf("%s: %d elements do not fit", where, count)
	}
	switch {
	case flags == branchPage && !inline:
		if count == 0 {
			return fmt.Errorf("%s: a branch page with no elements", where)
		}
		for i := range count {
			e := pageHeaderSize + i*elementSize
			pos, ksize := uint64(ne.Uint32(b[e:])), uint64(ne.Uint32(b[e+4:]))
			if e+pos+ksize > uint64(len(b)) {
				return fmt.Errorf("%s: element %d past the page's end", where, i)
			}
			w.stack = append(w.stack, ne.Uint64(b[e+8:]))
		}
	case flags == leafPage:
		for i := range count {
			e := pageHeaderSize + i*elementSize
			eflags := ne.Uint32(b[e:])
			pos, ksize, vsize := uint64(ne.Uint32(b[e+4:])), uint64(ne.Uint32(b[e+8:])), uint64(ne.Uint32(b[e+12:]))
			if e+pos+ksize+vsize > uint64(len(b)) {
				return fmt.Errorf("%s: element %d past the page's end", where, i)
			}
			switch eflags {
			case 0:
			case bucketLeaf:
				v := b[e+pos+ksize : e+pos+ksize+vsize]
				if len(v) < bucketHeaderSize {
					return fmt.Errorf("%s: element %d: a bucket header cut short", where, i)
				}
				if r := ne.Uint64(v); r != 0 {
					w.stack = append(w.stack, r)
				} else if err := w.node(v[bucketHeaderSize:], id, true); err != nil {
					return err
				}
			default:
				return fmt.Errorf("%s: element %d: flags %#x", where, i, eflags)
			}
		}
	default:
		return fmt.Errorf("%s: flags %#x, not a branch or leaf page", where, flags)
	}
	return nil
}
