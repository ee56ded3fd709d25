package storetest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
)

// Damaged is a file with some of its bytes cut or changed, as a full disk,
// an interrupted copy or a bad sector leave it.
type Damaged struct {
	Name string // what was done: "cut at 4096", "page 7 zeroed"
	Data []byte
}

// DamagedFiles returns copies of a healthy file cut at many lengths, and
// with each of its pages (of pageSize bytes) zeroed, scrambled, given a
// wild header or first element, or with bits flipped: the damage a file
// store must survive without crashing. The same file gives the same
// copies.
func DamagedFiles(healthy []byte, pageSize int) []Damaged {
	var out []Damaged
	cut := func(n int) {
		if n >= 0 && n < len(healthy) {
			out = append(out, Damaged{fmt.Sprintf("cut at %d", n), bytes.Clone(healthy[:n])})
		}
	}
	for _, n := range []int{1, 15, 16, 40, 100, 1023, 1024, 4095, 4097, 8191, 8193, len(healthy) / 2, len(healthy) - 1} {
		cut(n)
	}
	pages := len(healthy) / pageSize
	for p := 2; p < pages; p += max(1, pages/24) {
		cut(p * pageSize)
		cut(p*pageSize + pageSize/2)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	change := func(p int, what string, f func(page []byte)) {
		b := bytes.Clone(healthy)
		f(b[p*pageSize : (p+1)*pageSize])
		out = append(out, Damaged{fmt.Sprintf("page %d %s", p, what), b})
	}
	for p := range pages {
		change(p, "zeroed", func(page []byte) { clear(page) })
		change(p, "scrambled", func(page []byte) {
			for i := range page {
				page[i] = byte(rng.Uint32())
			}
		})
		change(p, "with a wild header", func(page []byte) {
			// flags: leaf; count and overflow: huge.
			copy(page[8:], []byte{0x02, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})
		})
		change(p, "with a wild first element", func(page []byte) {
			for i := 16; i < 32; i++ {
				page[i] = 0xee
			}
		})
		change(p, "with bits flipped", func(page []byte) {
			for range 8 {
				i := rng.IntN(len(page))
				page[i] ^= 1 << rng.IntN(8)
			}
		})
	}
	return out
}
