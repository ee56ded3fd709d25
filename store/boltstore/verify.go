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
	cur   pageBytes
	elems []byte
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

// pageBytes reads a page, with its overflow pages, no further than asked:
// the values in a leaf page need not be read to check it.
type pageBytes struct {
	f   *os.File
	id  uint64
	off int64  // the page's offset in the file
	ext uint64 // its length with its overflow pages
	b   []byte // its first bytes, read
}

// get returns bytes from to to of the page, which the caller has checked
// lie within it.
func (p *pageBytes) get(from, to uint64) ([]byte, error) {
	if have := uint64(len(p.b)); to > have {
		if uint64(cap(p.b)) < to {
			p.b = append(make([]byte, 0, max(to, 2*have)), p.b...)
		}
		if _, err := p.f.ReadAt(p.b[have:to], p.off+int64(have)); err != nil {
			return nil, fmt.Errorf("page %d: %v", p.id, err)
		}
		p.b = p.b[:to]
	}
	return p.b[from:to], nil
}

// page reads the header of page id, and its first page, and checks the
// header.
func (w *walker) page(id uint64, what string) (*pageBytes, error) {
	if id < 2 || id >= w.pgid {
		return nil, fmt.Errorf("%s: page %d out of range [2, %d)", what, id, w.pgid)
	}
	p := &w.cur
	*p = pageBytes{f: w.f, id: id, off: int64(id * w.ps), ext: w.ps, b: p.b[:0]}
	h, err := p.get(0, w.ps)
	if err != nil {
		return nil, err
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
	p.ext = (overflow + 1) * w.ps
	return p, nil
}

// freelist checks the free-list page.
func (w *walker) freelist(id uint64) error {
	p, err := w.page(id, "free list")
	if err != nil {
		return err
	}
	b := p.b
	if flags := ne.Uint16(b[8:]); flags != freelistPage {
		return fmt.Errorf("free list page %d: flags %#x", id, flags)
	}
	start, count := uint64(pageHeaderSize), uint64(ne.Uint16(b[10:]))
	if count == 0xFFFF {
		count = ne.Uint64(b[pageHeaderSize:])
		start += 8
	}
	if count > (p.ext-start)/8 {
		return fmt.Errorf("free list page %d: %d entries do not fit", id, count)
	}
	ids, err := p.get(start, start+8*count)
	if err != nil {
		return err
	}
	for i := range count {
		if pg := ne.Uint64(ids[8*i:]); pg < 2 || pg >= w.pgid {
			return fmt.Errorf("free list page %d: page %d out of range", id, pg)
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
		p, err := w.page(id, "bucket tree")
		if err != nil {
			return err
		}
		if err := w.node(p, 0, p.ext, false); err != nil {
			return err
		}
	}
	return nil
}

// node checks the branch or leaf page at bytes start to start+size of page
// p (all of it, or an inline bucket's page when inline is true), queueing
// the pages it names.
func (w *walker) node(p *pageBytes, start, size uint64, inline bool) error {
	where := fmt.Sprintf("page %d", p.id)
	if inline {
		where = fmt.Sprintf("inline bucket in page %d", p.id)
	}
	if size < pageHeaderSize {
		return fmt.Errorf("%s: cut short", where)
	}
	h, err := p.get(start, start+pageHeaderSize)
	if err != nil {
		return err
	}
	flags, count := ne.Uint16(h[8:]), uint64(ne.Uint16(h[10:]))
	if count > (size-pageHeaderSize)/elementSize {
		return fmt.Errorf("%s: %d elements do not fit", where, count)
	}
	elems, err := p.get(start+pageHeaderSize, start+pageHeaderSize+count*elementSize)
	if err != nil {
		return err
	}
	elems = append(w.elems[:0], elems...) // p.b may move when a bucket value is read
	w.elems = elems
	switch {
	case flags == branchPage && !inline:
		if count == 0 {
			return fmt.Errorf("%s: a branch page with no elements", where)
		}
		for i := range count {
			el := elems[i*elementSize:]
			e := pageHeaderSize + i*elementSize // from the start of the page
			pos, ksize := uint64(ne.Uint32(el)), uint64(ne.Uint32(el[4:]))
			if e+pos+ksize > size {
				return fmt.Errorf("%s: element %d past the page's end", where, i)
			}
			w.stack = append(w.stack, ne.Uint64(el[8:]))
		}
	case flags == leafPage:
		var inlines [][2]uint64
		for i := range count {
			el := elems[i*elementSize:]
			e := pageHeaderSize + i*elementSize
			eflags := ne.Uint32(el)
			pos, ksize, vsize := uint64(ne.Uint32(el[4:])), uint64(ne.Uint32(el[8:])), uint64(ne.Uint32(el[12:]))
			if e+pos+ksize+vsize > size {
				return fmt.Errorf("%s: element %d past the page's end", where, i)
			}
			switch eflags {
			case 0:
			case bucketLeaf:
				if vsize < bucketHeaderSize {
					return fmt.Errorf("%s: element %d: a bucket header cut short", where, i)
				}
				v := start + e + pos + ksize
				hb, err := p.get(v, v+bucketHeaderSize)
				if err != nil {
					return err
				}
				if r := ne.Uint64(hb); r != 0 {
					w.stack = append(w.stack, r)
				} else {
					inlines = append(inlines, [2]uint64{v + bucketHeaderSize, vsize - bucketHeaderSize})
				}
			default:
				return fmt.Errorf("%s: element %d: flags %#x", where, i, eflags)
			}
		}
		for _, in := range inlines {
			if err := w.node(p, in[0], in[1], true); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("%s: flags %#x, not a branch or leaf page", where, flags)
	}
	return nil
}
