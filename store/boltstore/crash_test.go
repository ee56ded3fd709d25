package boltstore

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
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
	childRoleEnv = "BOLTSTORE_TEST_CHILD"      // "writer" or "holder"
	childPathEnv = "BOLTSTORE_TEST_CHILD_FILE" // the store's file
	childTagEnv  = "BOLTSTORE_TEST_CHILD_TAG"  // tells the writers of rounds apart
)

func TestMain(m *testing.M) {
	switch os.Getenv(childRoleEnv) {
	case "writer":
		os.Exit(writer(os.Getenv(childPathEnv), os.Getenv(childTagEnv)))
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

// writer puts entries until it is killed, printing each one once its
// transaction has committed: "put KEY SIZE" and "deleted KEY".
func writer(path, tag string) int {
	s, err := Open(path, &Options{LockTimeout: 30 * time.Second})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	out := bufio.NewWriter(os.Stdout)
	key := func(i int) string { return fmt.Sprintf("https://%s-%d.example", tag, i) }
	for i := 0; ; i++ {
		// Sizes from 0 to 40 KB: some values fit a page, some span ten.
		k, size := key(i), (i*7919)%40_000
		if err := s.Put(ctx, k, content(k, size), 0); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Fprintf(out, "put %s %d\n", k, size)
		switch i % 10 {
		case 3: // overwrite an earlier one
			k, size := key(i-3), (i*104729)%40_000
			if err := s.Put(ctx, k, content(k, size), 0); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			fmt.Fprintf(out, "put %s %d\n", k, size)
		case 9: // delete an earlier one
			if err := s.Delete(ctx, key(i-5)); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			fmt.Fprintf(out, "deleted %s\n", key(i-5))
		}
		if err := out.Flush(); err != nil {
			return 1
		}
	}
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

// child starts this test binary in a child role on path.
func child(t *testing.T, role, path, tag string) (*exec.Cmd, io.WriteCloser, *bufio.Scanner, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childRoleEnv+"="+role, childPathEnv+"="+path, childTagEnv+"="+tag)
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
// passes bbolt's consistency check, that every write the process reported
// as committed is there and intact, and that no value in the file is torn.
func TestCrashWhileWriting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache.db")
	want := map[string]int{} // key: size of its last committed value
	gone := map[string]bool{}
	start := time.Now()
	for round := 1; round <= 3; round++ {
		tag := fmt.Sprintf("round%d", round)
		killAfter := 100*round + 17 // committed operations before the kill
		cmd, stdin, lines, stderr := child(t, "writer", path, tag)
		defer stdin.Close()
		seen, killed := 0, false
		for lines.Scan() {
			f := strings.Fields(lines.Text())
			switch {
			case len(f) == 3 && f[0] == "put":
				size, err := strconv.Atoi(f[2])
				if err != nil {
					t.Fatalf("writer: %q", lines.Text())
				}
				want[f[1]] = size
				delete(gone, f[1])
			case len(f) == 2 && f[0] == "deleted":
				delete(want, f[1])
				gone[f[1]] = true
			default:
				continue // the test binary's own output
			}
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
		checkFile(t, s, round)
		for k, size := range want {
			v, ok, err := s.Get(ctx, k)
			if err != nil || !ok {
				t.Fatalf("round %d: %s, reported committed, is missing (%v)", round, k, err)
			}
			if !bytes.Equal(v, content(k, size)) {
				t.Fatalf("round %d: %s holds %d bytes, not its last committed value of %d", round, k, len(v), size+sha256.Size)
			}
		}
		for k := range gone {
			if _, ok, _ := s.Get(ctx, k); ok {
				t.Fatalf("round %d: %s, reported deleted, is there", round, k)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		t.Logf("round %d: killed after %d committed operations (%d read in all); %d entries checked", round, killAfter, seen, len(want))
	}
	t.Logf("three writers killed and the file checked in %v", time.Since(start).Round(time.Millisecond))
}

// checkFile runs bbolt's consistency check and checks every value in the
// file, reported committed or not, for tearing.
func checkFile(t *testing.T, s *Store, round int) {
	t.Helper()
	err := s.db.View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			return fmt.Errorf("bbolt's check: %w", err)
		}
		return tx.Bucket(bucketValues).ForEach(func(k, r []byte) error {
			exp, v, ok := split(r)
			if !ok || exp != 0 || !intact(string(k), v) {
				return fmt.Errorf("%s holds a torn value (%d bytes)", k, len(r))
			}
			return nil
		})
	})
	if err != nil {
		t.Fatalf("round %d: %v", round, err)
	}
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
