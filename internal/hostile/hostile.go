// Package hostile generates the worst-case inputs for matching (issue 9):
// robots.txt files of about 500 KiB built so that a question has to
// consider many wildcard rules, and the long URLs asked about them.
//
// The root package's tests (the work bounds of TestHostileWork, the
// footprint and index tests, BenchmarkHostile) and the side-by-side
// benchmarks of the bench module use the same shapes from here. Their
// bounds depend on the exact bytes: a change to a shape is a change to
// those tests. Only tests import this package; the core package imports
// the standard library alone.
package hostile

import "strings"

// Size is how big the generated files are: just under what
// robotstxt.Parse reads (robotstxt.DefaultMaxBytes, 500 KiB). It is
// spelled out here because this package cannot import the root package;
// the root package's tests check that the two agree.
const Size = 500*1024 - 1024

// Letters spells combination i of k lowercase letters, the last letter
// varying fastest; the combinations are all distinct for 0 <= i < 26^k.
func Letters(i, k int) string {
	b := make([]byte, k)
	for j := k - 1; j >= 0; j-- {
		b[j] = byte('a' + i%26)
		i /= 26
	}
	return string(b)
}

// File fills a file of at most Size bytes with header, then the lines
// line(0), line(1), ..., stopping before the first line that would not
// fit.
func File(header string, line func(i int) string) string {
	var sb strings.Builder
	sb.WriteString(header)
	for i := 0; ; i++ {
		l := line(i)
		if sb.Len()+len(l) > Size {
			break
		}
		sb.WriteString(l)
	}
	return sb.String()
}

// Shape is one generated file, the crawler asked about it and the alphabet
// of the URLs asked (see URL).
type Shape struct {
	Name     string // shortfail, stars, dollars or groups
	Body     string // the robots.txt file, at most Size bytes
	Agent    string // the crawler asked about
	Alphabet string // the URLs' paths cycle through it
}

// Shapes returns the worst cases, in this order:
//   - shortfail: ~28,000 rules "Disallow: /*abcd." whose letters the URL
//     holds but whose segments never occur in it;
//   - stars: rules "/*a*a*...*a*xy" with 4 to 40 one-letter segments that
//     occur everywhere and a last one that mostly does not;
//   - dollars: rules full of literal '$' and anchored by a final '$',
//     "/*$abc*$de$", against a URL full of '$';
//   - groups: ~12,000 groups "User-agent: FooBot / Disallow: /*abcd.",
//     which FooBot's set merges.
//
// Each call builds the files anew (about 2 MB in all).
func Shapes() []Shape {
	const urlLetters = "abcdefghijklmnopqrstuvwxyz/"
	shortfail := File("User-agent: *\n", func(i int) string {
		return "Disallow: /*" + Letters(i, 4) + ".\n"
	})
	stars := File("User-agent: *\n", func(i int) string {
		var b strings.Builder
		b.WriteString("Disallow: /")
		for k := 0; k < 4+i%37; k++ {
			b.WriteString("*a")
		}
		b.WriteString("*" + Letters(i, 2) + "\n")
		return b.String()
	})
	dollars := File("User-agent: *\n", func(i int) string {
		return "Disallow: /*$" + Letters(i, 3) + "*$" + Letters(i*7+3, 2) + "$\n"
	})
	groups := File("", func(i int) string {
		return "User-agent: FooBot\nDisallow: /*" + Letters(i, 4) + ".\n\n"
	})
	return []Shape{
		{"shortfail", shortfail, "Googlebot", urlLetters},
		{"stars", stars, "Googlebot", "aaaaaaab/"},
		{"dollars", dollars, "Googlebot", "$ab$cde$fgh/"},
		{"groups", groups, "FooBot", urlLetters},
	}
}

// URL returns a URL of n bytes, "http://example.com/" followed by a path
// that cycles through alphabet (cut to n bytes if n is shorter than the
// prefix). The hostile benchmarks ask about URL(1<<10, s.Alphabet) and
// URL(16<<10, s.Alphabet).
func URL(n int, alphabet string) string {
	var sb strings.Builder
	sb.WriteString("http://example.com/")
	for i := 0; sb.Len() < n; i++ {
		sb.WriteByte(alphabet[i%len(alphabet)])
	}
	return sb.String()[:n]
}
