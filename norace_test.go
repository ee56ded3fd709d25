//go:build !race

package robotstxt

const raceEnabled = false
