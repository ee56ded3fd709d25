package main

import "testing"

// shortStep returns n under -short and 1 otherwise: tests that walk a large
// data set (the corpus, the golden questions) take every n-th item under
// -short. `make test` runs every test in full without the race detector,
// then again with -race -short.
func shortStep(n int) int {
	if testing.Short() {
		return n
	}
	return 1
}
