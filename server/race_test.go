//go:build race

package server

// raceEnabled is set when the race detector runs, whose shadow memory
// makes the process far larger: resident memory bounds are not checked.
const raceEnabled = true
