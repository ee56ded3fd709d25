// Command google-diff asks this module's library and Google's C++ library
// (through the answer program that google/diff.sh builds) the same questions
// about every file of the real corpus, and reports every question whose
// verdict or deciding line differs.
//
// The questions, per file: the golden questions, then URLs made from each
// rule's pattern (each '*' as nothing and as "x1", '$' dropped; the path
// with one byte more, one less, a '/' more, its parent; its query forms),
// each asked for every product token the file names, "*"-only agents and
// Googlebot.
//
// With -generated N, it asks about N generated files of large rule sets
// (internal/rulegen: 130 to 3,000 rules, hundreds of wildcard rules,
// anchors, escapes, several groups and agents, file order unrelated to
// length) as well, -gen-questions questions each: the shapes the real
// corpus does not reach. With -corpus=false, about those alone. Run it
// through google/diff.sh.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/internal/rulegen"
)

type question struct {
	file    int
	ua, url string
}

func main() {
	bin := flag.String("bin", "", "Google's answer program (google/answer.cc)")
	shared := flag.String("shared", filepath.Join("..", "testdata"), "the test data folder (conformance/, corpus/real/)")
	perFile := flag.Int("per-file", 200, "questions made per file, at most (besides the golden ones)")
	generated := flag.Int("generated", 0, "generated files of large rule sets to ask about too")
	genSeed := flag.Uint64("gen-seed", 0, "the first generated file's seed")
	genQuestions := flag.Int("gen-questions", 600, "questions per generated file")
	corpus := flag.Bool("corpus", true, "ask about the real corpus")
	flag.Parse()
	if err := run(*bin, *shared, *perFile, *corpus, gens{*generated, *genSeed, *genQuestions}); err != nil {
		fmt.Fprintln(os.Stderr, "google-diff:", err)
		os.Exit(1)
	}
}

// gens says which generated files to ask about.
type gens struct {
	n         int
	seed      uint64
	questions int
}

func run(bin, shared string, perFile int, corpus bool, g gens) error {
	var files []string
	if corpus {
		dir := filepath.Join(shared, "corpus", "real")
		ents, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".txt") {
				files = append(files, filepath.Join(dir, e.Name()))
			}
		}
		slices.Sort(files)
	}
	// Generated files are written to a folder of their own, which the
	// answer program reads them from; their questions are made here.
	genQs := map[string][][2]string{}
	if g.n > 0 {
		dir, err := os.MkdirTemp("", "google-diff-gen")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		rules := 0
		for s := g.seed; s < g.seed+uint64(g.n); s++ {
			f := rulegen.Generate(s, g.questions/2)
			p := filepath.Join(dir, fmt.Sprintf("gen-%d.txt", s))
			if err := os.WriteFile(p, []byte(f.Body), 0o644); err != nil {
				return err
			}
			files = append(files, p)
			genQs[p] = f.Questions(g.questions)
			rules += f.Rules
		}
		fmt.Printf("%d generated files (seeds %d to %d), %d rules\n", g.n, g.seed, g.seed+uint64(g.n)-1, rules)
	}
	golden := map[string][][2]string{}
	if f, err := os.Open(filepath.Join(shared, "conformance", "corpus_golden.jsonl")); err == nil {
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			var rec struct{ File, UA, URL string }
			if json.Unmarshal(sc.Bytes(), &rec) == nil {
				p := filepath.Join(shared, "corpus", rec.File)
				golden[p] = append(golden[p], [2]string{rec.UA, rec.URL})
			}
		}
		f.Close()
	}

	cmd := exec.Command(bin)
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	// Questions are written as they are made; answers read in order.
	qs := make(chan question, 4096)
	go func() {
		w := bufio.NewWriter(in)
		rng := rand.New(rand.NewPCG(7, 11))
		for i, path := range files {
			qq, ok := genQs[path]
			if !ok {
				qq = questionsFor(path, golden[path], perFile, rng)
			}
			for _, q := range qq {
				fmt.Fprintf(w, "%s\t%s\t%s\n", path, q[0], q[1])
				qs <- question{i, q[0], q[1]}
			}
		}
		w.Flush()
		in.Close()
		close(qs)
	}()
	rd := bufio.NewReader(out)
	var cur = -1
	// r answers through Allowed and Decide (so its sets are compiled
	// from the first question); first is parsed anew every few questions
	// and asked only Allowed, whose first answers are read from the
	// parsed lines.
	var r, first *robotstxt.Robots
	var body []byte
	asked := 0
	n, bad := 0, 0
	for q := range qs {
		line, err := rd.ReadString('\n')
		if err != nil {
			return fmt.Errorf("answer program: %v after %d answers", err, n)
		}
		f := strings.Split(strings.TrimSpace(line), "\t")
		if len(f) != 2 {
			return fmt.Errorf("answer program said %q", line)
		}
		gAllowed, gLine := f[0] == "1", atoi(f[1])
		if q.file != cur {
			if body, err = os.ReadFile(files[q.file]); err != nil {
				return err
			}
			r, cur = robotstxt.Parse(body), q.file
			first, asked = robotstxt.Parse(body), 0
		}
		if asked == firstAnswers {
			first, asked = robotstxt.Parse(body), 0
		}
		n++
		asked++
		ok := r.Allowed(q.ua, q.url)
		d := r.Decide(robotstxt.Query{URL: q.url, Agents: []string{q.ua}, Dialect: robotstxt.Google})
		okFirst := first.Allowed(q.ua, q.url)
		if ok != gAllowed || d.Allowed != gAllowed || d.Line() != gLine || okFirst != gAllowed {
			bad++
			if bad <= 20 {
				fmt.Printf("DIFF %s ua=%q url=%q: ours Allowed=%v (first answers %v) Decide=%v line %d; Google %v line %d\n",
					filepath.Base(files[q.file]), q.ua, q.url, ok, okFirst, d.Allowed, d.Line(), gAllowed, gLine)
			}
		}
	}
	if err := cmd.Wait(); err != nil {
		return err
	}
	fmt.Printf("%d files (%d generated), %d questions: %d disagreements (verdict or deciding line)\n", len(files), len(genQs), n, bad)
	if bad > 0 {
		return fmt.Errorf("%d disagreements", bad)
	}
	return nil
}

// firstAnswers is how many questions a parsed file answers from its lines
// before compiling (the root package's firstAnswers).
const firstAnswers = 8

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// questionsFor makes the questions about one file: the golden ones, then up
// to max made from its rules and agents.
func questionsFor(path string, golden [][2]string, max int, rng *rand.Rand) [][2]string {
	out := slices.Clone(golden)
	body, err := os.ReadFile(path)
	if err != nil {
		return out
	}
	r := robotstxt.Parse(body)
	agents := []string{"Googlebot", "FooBot"}
	var paths []string
	for _, g := range r.Groups() {
		for _, a := range g.Agents {
			if t := robotstxt.ExtractToken(a.Value); t != "" && !slices.Contains(agents, t) {
				agents = append(agents, t)
			}
		}
		for _, ru := range g.Rules {
			paths = append(paths, variants(ru.Value)...)
		}
	}
	if len(paths) == 0 {
		paths = []string{"/"}
	}
	for i := 0; i < max; i++ {
		p := paths[rng.IntN(len(paths))]
		ua := agents[rng.IntN(len(agents))]
		if rng.IntN(3) == 0 {
			ua = strings.ToLower(ua)
		}
		url := "https://example.com" + p
		if rng.IntN(4) == 0 {
			url = p
		}
		if strings.ContainsAny(url+ua, "\t\n\r") {
			continue
		}
		out = append(out, [2]string{ua, url})
	}
	return out
}

// variants are paths a pattern matches or nearly matches.
func variants(pat string) []string {
	base := strings.TrimSuffix(pat, "$")
	var out []string
	for _, star := range []string{"", "x1"} {
		p := strings.ReplaceAll(base, "*", star)
		if !strings.HasPrefix(p, "/") {
			p = "/" + p
		}
		out = append(out, p, p+"a", p+"/", p+"?q=1")
		if len(p) > 1 {
			out = append(out, p[:len(p)-1])
		}
		if i := strings.LastIndexByte(strings.TrimSuffix(p, "/"), '/'); i >= 0 {
			out = append(out, p[:i+1])
		}
	}
	return out
}
