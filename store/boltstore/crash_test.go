package boltstore

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The crash and lock tests run this test binary again as a child process,
// which TestMain sends to one of the child roles below instead of the tests.
const (
	childRoleEnv  = "BOLTSTORE_TEST_CHILD"        // "writer" or "holder"
	childPathEnv  = "BOLTSTORE_TEST_CHILD_FILE"   // the store's file
	childTagEnv   = "BOLTSTORE_TEST_CHILD_TAG"    // tells the writers of rounds apart
	childDieAtEnv = "BOLTSTORE_TEST_CHILD_DIE_AT" // the writer kills itself once this operation has committed
)

func TestMain(m *testing.M) {
	switch os.Getenv(childRoleEnv) {
	case "writer":
		dieAt, _ := strconv.Atoi(os.Getenv(childDieAtEnv))
		os.Exit(writer(os.Getenv(childPathEnv), os.Getenv(childTagEnv), dieAt))
	case "holder":
		os.Exit(holder(os.Getenv(childPathEnv)))
	}
	os.Exit(m.Run())
}

// content is the value the writer stores under key: a checksum of key and
// size, then size bytes derived from both, so a reader tells an intact value
// from a torn, shortened or misplaced one without knowing size beforehand.
func content(key string, size int) []byte {
	seed := sha256.Sum256([]byte(key + "\x00" + strconv.Itoa(size)))
	out := append(make([]byte, 0, len(seed)+size+sha256.Size), seed[:]...)
	block := seed
	for len(out) < len(seed)+size {
		block = sha256.Sum256(block[:])
		out = append(out, block[:]...)
	}
	return out[:len(seed)+size]
}

// intact reports whether v is content(key, n) for its length.
func intact(key string, v []byte) bool {
	return len(v) >= sha256.Size && bytes.Equal(v, content(key, len(v)-sha256.Size))
}

// crashOp is one operation of the writer: a put of content(key, size), or
// a deletion of key. Its String is the line the writer reports it with.
type crashOp struct {
	key    string
	size   int
	delete bool
}

func (op crashOp) String() string {
	if op.delete {
		return "deleted " + op.key
	}
	return fmt.Sprintf("put %s %d", op.key, op.size)
}

// apply applies op to entries, the sizes of the values by key.
func (op crashOp) apply(entries map[string]int) {
	if op.delete {
		delete(entries, op.key)
	} else {
		entries[op.key] = op.size
	}
}

// writerOps returns the writer's operations, in order, for a run tagged
// tag: a put of a new key each step, with values of 0 to 40 KB (some fit a
// page, some span ten); every tenth step also overwrites an earlier key,
// and every tenth deletes one.
func writerOps(tag string) iter.Seq[crashOp] {
	key := func(i int) string { return fmt.Sprintf("https://%s-%d.example", tag, i) }
	return func(yield func(crashOp) bool) {
		for i := 0; ; i++ {
			if !yield(crashOp{key: key(i), size: (i * 7919) % 40_000}) {
				return
			}
			switch i % 10 {
			case 3:
				if !yield(crashOp{key: key(i - 3), size: (i * 104729) % 40_000}) {
					return
				}
			case 9:
				if !yield(crashOp{key: key(i - 5), delete: true}) {
					return
				}
			}
		}
	}
}

// writer applies writerOps(tag) until it is killed, reporting each
// operation on its own line once its transaction has committed. Between the
// commit and the report there is always a moment when a kill leaves a
// committed operation unreported; with dieAt > 0 the writer kills itself
// there, once operation dieAt (counting from 1) has committed.
func writer(path, tag string, dieAt int) int {
	s, err := Open(path, &Options{LockTimeout: 30 * time.Second})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	n := 0
	for op := range writerOps(tag) {
		if op.delete {
			err = s.Delete(ctx, op.key)
		} else {
			err = s.Put(ctx, op.key, content(op.key, op.size), 0)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if n++; n == dieAt {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
		if _, err := fmt.Println(op); err != nil {
			return 1
		}
	}
	return 0
}

// holder opens the store, says "ready", and keeps it open until its standard
// input ends.
func holder(path string) int {
	s, err := Open(path, &Options{LockTimeout: 30 * time.Second})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("ready")
	_, _ = io.Copy(io.Discard, os.Stdin)
	if err := s.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// child starts this test binary in a child role on path; env adds to its
// environment.
func child(t *testing.T, role, path, tag string, env ...string) (*exec.Cmd, io.WriteCloser, *bufio.Scanner, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childRoleEnv+"="+role, childPathEnv+"="+path, childTagEnv+"="+tag)
	cmd.Env = append(cmd.Env, env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting the %s child: %v", role, err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd, stdin, bufio.NewScanner(stdout), &stderr
}

// TestCrashWhileWriting kills a process writing to the store, three times
// over on the same file, and checks after each kill that the file opens and
// passes bbolt's consistency check, that it holds exactly what the writes
// the process reported as committed left (every value intact, nothing lost,
// nothing more), but for the one write that may have committed without
// being reported, and that no value in the file is torn.
func TestCrashWhileWriting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache.db")
	entries := map[string]int{} // key: the size of its value
	start := time.Now()
	for round := 1; round <= 3; round++ {
		killAfter := 100*round + 17 // reported operations before the kill
		seen, extra := crashRound(t, path, round, killAfter, 0, entries)
		t.Logf("round %d: killed after %d reported operations (%d read in all, one more committed unreported: %v); %d entries checked",
			round, killAfter, seen, extra, len(entries))
	}
	t.Logf("three writers killed and the file checked in %v", time.Since(start).Round(time.Millisecond))
}

// TestCrashBeforeReport kills the writer at the moment a random kill can
// also find it: a write committed, and not yet reported. The file holds
// that write: bookkeeping that took the reported writes for all the
// committed ones saw an overwritten value as "not its last committed
// value", and a deleted key as "reported committed, is missing".
func TestCrashBeforeReport(t *testing.T) {
	for _, tc := range []struct {
		name  string
		dieAt int // the operation, from 1, after whose commit the writer dies
	}{
		{"put", 4},       // https://round1-3.example
		{"overwrite", 5}, // of https://round1-0.example
		{"deletion", 12}, // of https://round1-4.example
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cache.db")
			entries := map[string]int{}
			seen, extra := crashRound(t, path, 1, 0, tc.dieAt, entries)
			if seen != tc.dieAt-1 || !extra {
				t.Fatalf("%d operations reported, the next one found in the file: %v; want %d and true", seen, extra, tc.dieAt-1)
			}
		})
	}
}

// crashRound runs a writer tagged by round on path and kills it: the test
// kills it once killAfter operations are reported, or the writer kills
// itself once operation dieAt has committed. Then it opens the file and
// checks it against entries, the sizes of the values the earlier rounds
// left by key, which it brings up to date. The writer's operations are
// known beforehand (writerOps): those it reported must all be in the file,
// and the one after them may be, when the kill came between its commit and
// its report; nothing else may. seen is the count of operations reported;
// extra says whether the next one was in the file.
func crashRound(t *testing.T, path string, round, killAfter, dieAt int, entries map[string]int) (seen int, extra bool) {
	t.Helper()
	tag := fmt.Sprintf("round%d", round)
	var env []string
	if dieAt > 0 {
		env = append(env, childDieAtEnv+"="+strconv.Itoa(dieAt))
	}
	cmd, stdin, lines, stderr := child(t, "writer", path, tag, env...)
	defer stdin.Close()
	next, stop := iter.Pull(writerOps(tag))
	defer stop()
	op, _ := next()
	killed := false
	for lines.Scan() {
		line := lines.Text()
		if !strings.HasPrefix(line, "put ") && !strings.HasPrefix(line, "deleted ") {
			continue // the test binary's own output
		}
		if line != op.String() {
			t.Fatalf("round %d: the writer reported %q as operation %d, want %q", round, line, seen+1, op)
		}
		op.apply(entries)
		op, _ = next()
		seen++
		if seen == killAfter && !killed {
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			killed = true
		}
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("round %d: the writer ended with %v, not killed after %d operations; stderr:\n%s", round, err, seen, stderr)
	}

	s, err := Open(path, &Options{LockTimeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("round %d: the file does not open after the kill: %v", round, err)
	}
	defer func() {
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}()
	if d := s.Damage(); d != nil {
		t.Fatalf("round %d: %v", round, d)
	}
	inFile := checkFile(t, s, round)
	// op, reported or not, is the only write that may be in the file
	// beyond those reported.
	after := maps.Clone(entries)
	op.apply(after)
	if maps.Equal(inFile, after) && !maps.Equal(inFile, entries) {
		clear(entries)
		maps.Copy(entries, after)
		return seen, true
	}
	for k, size := range entries {
		got, ok := inFile[k]
		switch {
		case !ok:
			t.Fatalf("round %d: %s, reported committed, is missing", round, k)
		case got != size:
			t.Fatalf("round %d: %s holds a value of %d bytes, not its last committed one of %d (the next write, not reported: %s)",
				round, k, got, size, op)
		}
	}
	for k, size := range inFile {
		if _, ok := entries[k]; !ok {
			t.Fatalf("round %d: %s holds a value of %d bytes, but no write of it was reported (the next one: %s)", round, k, size, op)
		}
	}
	return seen, false
}

// checkFile runs bbolt's consistency check, checks every value in the
// file, reported committed or not, for tearing, and returns the sizes of
// the values by key.
func checkFile(t *testing.T, s *Store, round int) map[string]int {
	t.Helper()
	sizes := map[string]int{}
	err := s.db.View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			return fmt.Errorf("bbolt's check: %w", err)
		}
		return tx.Bucket(bucketValues).ForEach(func(k, r []byte) error {
			exp, v, ok := split(r)
			if !ok || exp != 0 || !intact(string(k), v) {
				return fmt.Errorf("%s holds a torn value (%d bytes)", k, len(r))
			}
			sizes[string(k)] = len(v) - sha256.Size
			return nil
		})
	})
	if err != nil {
		t.Fatalf("round %d: %v", round, err)
	}
	return sizes
}

// TestLockedByAnotherProcess checks that Open gives up on a file another
// process holds, with ErrLocked, instead of hanging, and that the file opens
// once that process lets go, or is killed.
func TestLockedByAnotherProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache.db")
	for _, ending := range []string{"closes", "is killed"} {
		t.Run(ending, func(t *testing.T) {
			cmd, stdin, lines, stderr := child(t, "holder", path, "")
			if !lines.Scan() || lines.Text() != "ready" {
				t.Fatalf("the holder did not start: %q; stderr:\n%s", lines.Text(), stderr)
			}
			done := make(chan error, 1)
			go func() {
				s, err := Open(path, &Options{LockTimeout: 200 * time.Millisecond})
				if err == nil {
					s.Close()
				}
				done <- err
			}()
			select {
			case err := <-done:
				checkLocked(t, err, path, 200*time.Millisecond)
			case <-time.After(time.Minute):
				t.Fatal("Open of a file another process holds hangs")
			}
			if ending == "closes" {
				stdin.Close()
				if err := cmd.Wait(); err != nil {
					t.Fatalf("the holder: %v; stderr:\n%s", err, stderr)
				}
			} else {
				if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
				_ = cmd.Wait()
			}
			s, err := Open(path, &Options{LockTimeout: 5 * time.Second})
			if err != nil {
				t.Fatalf("Open after the holder %s: %v", ending, err)
			}
			s.Close()
		})
	}
}
