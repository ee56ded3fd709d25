// Package filelayers checks that the files of a package form layers: the
// static graph of calls between the package's own functions, by file, has
// no cycle. The core package and tester keep their layouts with it
// (docs/architecture.md).
package filelayers

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"
)

// TB is the part of testing.TB Check uses.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// Check type-checks the package pkgName in dir (its non-test files, with
// imports read from source), builds the graph of calls between its files
// among those include accepts, and fails t on any cycle, naming the calls
// that close it. minEdges guards the check itself: fewer files calling
// each other than that means the graph is not being read.
func Check(t TB, dir, pkgName string, include func(file string) bool, minEdges int) {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check(pkgName, fset, files, info)
	if err != nil {
		t.Fatal(err)
	}
	fileOf := func(p token.Pos) string { return filepath.Base(fset.Position(p).Filename) }

	// declared: the file of each function and method of the package.
	declared := map[*types.Func]string{}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
					declared[fn] = fileOf(fd.Pos())
				}
			}
		}
	}
	// edges[a][b]: a call from file a into file b, with one example.
	edges := map[string]map[string]string{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			from := fileOf(fd.Pos())
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				id, ok := n.(*ast.Ident)
				if !ok {
					return true
				}
				fn, ok := info.Uses[id].(*types.Func)
				if !ok || fn.Pkg() != pkg {
					return true
				}
				to, ok := declared[fn.Origin()]
				if !ok || to == from || !include(from) || !include(to) {
					return true
				}
				if edges[from] == nil {
					edges[from] = map[string]string{}
				}
				if _, seen := edges[from][to]; !seen {
					edges[from][to] = fd.Name.Name + " calls " + fn.Name()
				}
				return true
			})
		}
	}
	if len(edges) < minEdges {
		t.Fatalf("calls between %d files found: the graph is not being read", len(edges))
	}

	// Tarjan's strongly connected components: a component of more than
	// one file is a cycle.
	index, low := map[string]int{}, map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	var cycles [][]string
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = len(index), len(index)
		stack = append(stack, v)
		onStack[v] = true
		for w := range edges[v] {
			if _, ok := index[w]; !ok {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var comp []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			if len(comp) > 1 {
				sort.Strings(comp)
				cycles = append(cycles, comp)
			}
		}
	}
	var all []string
	for v := range edges {
		all = append(all, v)
	}
	sort.Strings(all)
	for _, v := range all {
		if _, ok := index[v]; !ok {
			visit(v)
		}
	}
	for _, comp := range cycles {
		in := map[string]bool{}
		for _, f := range comp {
			in[f] = true
		}
		var calls []string
		for _, a := range comp {
			for b, ex := range edges[a] {
				if in[b] {
					calls = append(calls, a+" -> "+b+" ("+ex+")")
				}
			}
		}
		sort.Strings(calls)
		t.Errorf("files calling each other in a cycle: %s; the calls between them:\n  %s\nmove the function to the layer it belongs to (docs/architecture.md)", strings.Join(comp, ", "), strings.Join(calls, "\n  "))
	}
}
