//go:build race

package robotstxt

// raceEnabled is set when the race detector runs, whose instrumentation
// makes code allocate more than it does: allocation bounds are not checked.
const raceEnabled = true
