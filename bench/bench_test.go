package bench

// Side-by-side benchmarks. Every benchmark has one sub-benchmark per
// implementation, named impl=NAME, so that
//
//	benchstat -col /impl out.txt
//
// puts the implementations in columns. See README.md.

import (
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/jimsmart/grobotstxt"
	"github.com/seed53c283f5/robotstxt"
	temoto "github.com/temoto/robotstxt"
)

// Sinks keep results alive so that the measured calls cannot be dropped.
var (
	sinkOurs   *robotstxt.Robots
	sinkTemoto *temoto.RobotsData
	sinkBool   bool
)

// BenchmarkParse parses the 1,000 sample files (each cut to 512,000 bytes,
// the same bytes for every library); one op is the whole sample.
//
//   - ours: robotstxt.Parse, which builds everything Allowed needs.
//   - temoto: robotstxt.FromBytes, which builds its groups (and compiles a
//     regexp for every wildcard rule).
//   - grobotstxt: grobotstxt.Parse with a handler that does nothing: its
//     parser alone, with nothing stored. grobotstxt keeps no parsed form;
//     each question re-parses (see BenchmarkAllowed).
func BenchmarkParse(b *testing.B) {
	c := sample(b)
	run := func(name string, parse func(f *file)) {
		b.Run("impl="+name, func(b *testing.B) {
			b.SetBytes(c.bytes)
			b.ReportAllocs()
			for b.Loop() {
				for i := range c.files {
					parse(&c.files[i])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(c.files)), "ns/file")
		})
	}
	run("ours", func(f *file) { sinkOurs = robotstxt.Parse(f.body) })
	run("ours-compiled", func(f *file) {
		sinkOurs = robotstxt.Parse(f.body)
		sinkOurs.Compile()
	})
	run("temoto", func(f *file) { sinkTemoto, _ = temoto.FromBytes(f.body) })
	run("grobotstxt", func(f *file) { grobotstxt.Parse(f.str, nopHandler{}) })
}

// BenchmarkAllowed asks the golden questions about the sample, cycling
// through them; one op is one question.
//
//   - ours: Robots.Allowed(ua, url), each file parsed once beforehand; the
//     URL is given whole and Allowed extracts the path itself.
//   - ours-decide: Robots.Decide, the richer answer (what decided, why).
//   - temoto: FindGroup(ua).Test(path), each file parsed once beforehand,
//     the path taken out of the URL (net/url) beforehand, outside the timing.
//   - temoto-urlparse: the same with url.Parse of the URL in the timed loop.
//   - grobotstxt: AgentAllowed(body, ua, url), which parses the file again
//     for every question (it has no parse-once form).
func BenchmarkAllowed(b *testing.B) {
	c := sample(b)
	p := parseAll(c)
	qs := c.questions
	run := func(name string, ask func(i int, q *question) bool) {
		b.Run("impl="+name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				sinkBool = ask(i, &qs[i])
				if i++; i == len(qs) {
					i = 0
				}
			}
		})
	}
	run("ours", func(_ int, q *question) bool { return p.ours[q.file].Allowed(q.ua, q.url) })
	run("ours-decide", func(i int, q *question) bool { return p.ours[q.file].Decide(p.queries[i]).Allowed })
	run("temoto", func(i int, q *question) bool { return temotoAllowed(p.temoto[q.file], q.ua, p.temotoPaths[i]) })
	run("temoto-urlparse", func(_ int, q *question) bool { return temotoAllowedURL(p.temoto[q.file], q.ua, q.url) })
	run("grobotstxt", func(_ int, q *question) bool { return grobotstxt.AgentAllowed(c.files[q.file].str, q.ua, q.url) })
}

// BenchmarkAllowedPerSite asks each file's questions 16 times over before
// moving to the next file, as a crawler working through one site does: the
// parsed file stays in cache. BenchmarkAllowed interleaves the files, as a
// crawler alternating between many sites does.
func BenchmarkAllowedPerSite(b *testing.B) {
	c := sample(b)
	p := parseAll(c)
	qs := c.questions
	// Order: each file's questions, repeated, file after file.
	var order []int
	for i := 0; i < len(qs); {
		j := i
		for j < len(qs) && qs[j].file == qs[i].file {
			j++
		}
		for rep := 0; rep < 16; rep++ {
			for k := i; k < j; k++ {
				order = append(order, k)
			}
		}
		i = j
	}
	run := func(name string, ask func(i int, q *question) bool) {
		b.Run("impl="+name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				k := order[i]
				sinkBool = ask(k, &qs[k])
				if i++; i == len(order) {
					i = 0
				}
			}
		})
	}
	run("ours", func(_ int, q *question) bool { return p.ours[q.file].Allowed(q.ua, q.url) })
	run("temoto", func(i int, q *question) bool { return temotoAllowed(p.temoto[q.file], q.ua, p.temotoPaths[i]) })
	run("temoto-urlparse", func(_ int, q *question) bool { return temotoAllowedURL(p.temoto[q.file], q.ua, q.url) })
}

// coldURLs is how many distinct URLs BenchmarkAllowedCold asks about each
// file.
const coldURLs = 512

// BenchmarkAllowedCold asks about 512 distinct URLs for each of the 1,000
// files, one question at a time, going round the files: question j about
// every file, then question j+1. So a crawler interleaving many sites asks:
// the parsed file, its rules and the URL are each out of cache. The URLs
// of a file are its golden questions' URLs, each made distinct by a
// suffix (a path segment or a query parameter). One op is one question.
//
//   - ours: Robots.Allowed(ua, url), each file parsed and compiled
//     beforehand (Robots.Compile) and every question asked once before
//     the timing, so that what is timed is matching alone.
//   - temoto: FindGroup(ua).Test(path), the path taken out of the URL
//     beforehand, outside the timing.
func BenchmarkAllowedCold(b *testing.B) {
	c := sample(b)
	p := parseAll(c)
	type coldQ struct {
		file     int
		ua, url  string
		tempPath string
	}
	// The golden questions of each file.
	byFile := make([][]int, len(c.files))
	for i, q := range c.questions {
		byFile[q.file] = append(byFile[q.file], i)
	}
	var sites []int
	for f := range byFile {
		if len(byFile[f]) > 0 {
			sites = append(sites, f)
		}
	}
	qs := make([]coldQ, 0, len(sites)*coldURLs)
	for j := 0; j < coldURLs; j++ {
		for _, f := range sites {
			q := c.questions[byFile[f][j%len(byFile[f])]]
			u := q.url
			switch {
			case j < len(byFile[f]):
			case strings.Contains(u, "?"):
				u += "&v=" + strconv.Itoa(j)
			case j%2 == 0:
				u += "x" + strconv.Itoa(j)
			default:
				u += "?v=" + strconv.Itoa(j)
			}
			qs = append(qs, coldQ{file: f, ua: q.ua, url: u, tempPath: temotoPath(u)})
		}
	}
	for _, r := range p.ours {
		r.Compile()
	}
	for i := range qs {
		sinkBool = p.ours[qs[i].file].Allowed(qs[i].ua, qs[i].url)
		sinkBool = temotoAllowed(p.temoto[qs[i].file], qs[i].ua, qs[i].tempPath)
	}
	run := func(name string, ask func(q *coldQ) bool) {
		b.Run("impl="+name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				sinkBool = ask(&qs[i])
				if i++; i == len(qs) {
					i = 0
				}
			}
		})
	}
	run("ours", func(q *coldQ) bool { return p.ours[q.file].Allowed(q.ua, q.url) })
	run("temoto", func(q *coldQ) bool { return temotoAllowed(p.temoto[q.file], q.ua, q.tempPath) })
}

// BenchmarkRetained measures what the parsed sample keeps on the heap,
// after a collection, per byte of input (B/inputB) and per file (B/file).
// grobotstxt keeps no parsed form, so it has no entry.
func BenchmarkRetained(b *testing.B) {
	c := sample(b)
	run := func(name string, parse func(f *file) any) {
		b.Run("impl="+name, func(b *testing.B) {
			kept := make([]any, len(c.files))
			var retained float64
			var before, after runtime.MemStats
			for b.Loop() {
				clear(kept)
				runtime.GC()
				runtime.ReadMemStats(&before)
				for i := range c.files {
					kept[i] = parse(&c.files[i])
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				runtime.KeepAlive(kept)
				retained += float64(int64(after.HeapAlloc) - int64(before.HeapAlloc))
			}
			b.ReportMetric(retained/float64(b.N)/float64(c.bytes), "B/inputB")
			b.ReportMetric(retained/float64(b.N)/float64(len(c.files)), "B/file")
		})
	}
	run("ours", func(f *file) any { return robotstxt.Parse(f.body) })
	run("ours-compiled", func(f *file) any {
		r := robotstxt.Parse(f.body)
		r.Compile()
		return r
	})
	run("temoto", func(f *file) any {
		r, _ := temoto.FromBytes(f.body)
		return r
	})
}

// BenchmarkOneShot parses each file of the sample and asks it one question
// (its first golden question): the first answer of a file, what the CLI, an
// inline check and a crawler meeting a new origin each pay. One op is the
// whole sample; ns/file is the figure to compare, also with Google's C++
// library (google/oneshot.sh times the same files and questions).
//
//   - ours: robotstxt.Parse then Robots.Allowed (which answers this first
//     question from the parsed lines; it compiles the crawler's rule set
//     only after a few questions).
//   - temoto: robotstxt.FromBytes then FindGroup(ua).Test(path).
//   - grobotstxt: AgentAllowed(body, ua, url), its one-shot form.
func BenchmarkOneShot(b *testing.B) {
	c := sample(b)
	qs := c.oneShot()
	paths := make([]string, len(qs))
	for i, q := range qs {
		paths[i] = temotoPath(q.url)
	}
	run := func(name string, ask func(f *file, q *question, path string) bool) {
		b.Run("impl="+name, func(b *testing.B) {
			b.SetBytes(c.bytes)
			b.ReportAllocs()
			for b.Loop() {
				for i := range qs {
					sinkBool = ask(&c.files[qs[i].file], &qs[i], paths[i])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(qs)), "ns/file")
		})
	}
	run("ours", func(f *file, q *question, _ string) bool {
		return robotstxt.Parse(f.body).Allowed(q.ua, q.url)
	})
	run("temoto", func(f *file, q *question, path string) bool {
		r, _ := temoto.FromBytes(f.body)
		return temotoAllowed(r, q.ua, path)
	})
	run("grobotstxt", func(f *file, q *question, _ string) bool {
		return grobotstxt.AgentAllowed(f.str, q.ua, q.url)
	})
}

// siteVisitQuestions is how many questions BenchmarkSiteVisit asks of each
// file: past the eight a parsed file answers from its lines, so that the
// crawler's rule set is compiled.
const siteVisitQuestions = 16

// BenchmarkSiteVisit parses each file of the sample and asks it 16
// questions for one crawler (the user-agent of the file's first golden
// question, about the file's golden URLs in turn): what a crawler pays on
// meeting a new site and fetching a few pages of it. The ninth question
// lays out the token table and compiles that crawler's rules only: the
// lazy counterpart of BenchmarkParse's ours-compiled, which compiles every
// crawler's. One op is the whole sample; ns/file is the figure.
//
//   - ours: robotstxt.Parse, then Robots.Allowed 16 times.
//   - temoto: robotstxt.FromBytes, then FindGroup(ua).Test(path) 16 times,
//     the paths taken out of the URLs beforehand.
func BenchmarkSiteVisit(b *testing.B) {
	c := sample(b)
	first := c.oneShot()
	type visit struct {
		file       int
		ua         string
		urls       []string
		temotoPath []string
	}
	byFile := make([][]string, len(c.files))
	for _, q := range c.questions {
		byFile[q.file] = append(byFile[q.file], q.url)
	}
	visits := make([]visit, len(first))
	for i, q := range first {
		v := visit{file: q.file, ua: q.ua}
		for k := range siteVisitQuestions {
			u := byFile[q.file][k%len(byFile[q.file])]
			v.urls = append(v.urls, u)
			v.temotoPath = append(v.temotoPath, temotoPath(u))
		}
		visits[i] = v
	}
	run := func(name string, ask func(v *visit)) {
		b.Run("impl="+name, func(b *testing.B) {
			b.SetBytes(c.bytes)
			b.ReportAllocs()
			for b.Loop() {
				for i := range visits {
					ask(&visits[i])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(visits)), "ns/file")
		})
	}
	run("ours", func(v *visit) {
		r := robotstxt.Parse(c.files[v.file].body)
		for _, u := range v.urls {
			sinkBool = r.Allowed(v.ua, u)
		}
	})
	run("temoto", func(v *visit) {
		r, _ := temoto.FromBytes(c.files[v.file].body)
		for _, p := range v.temotoPath {
			sinkBool = temotoAllowed(r, v.ua, p)
		}
	})
}
