// Package cputime reads the CPU time the process has used, for benchmarks
// that report it per operation beside the wall time, which the other
// processes of a shared machine inflate.
package cputime
