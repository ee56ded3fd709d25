// Command robotstxt tests, compares and evaluates robots.txt files.
//
// Run "robotstxt help" for the subcommands.
package main

import (
	"context"
	"os"

	"github.com/redis/go-redis/v9"
)

func main() {
	quietRedis()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// quietRedis silences go-redis's global logger, which prints every failed
// connection to stderr: a Redis store that cannot be reached says so once,
// in one line, through its Health (see openStore), and the output stays
// clean. It is the program's choice, so main makes it, not a library.
func quietRedis() {
	redis.SetLogger(discardLog{})
}

// discardLog is a go-redis logger that drops everything.
type discardLog struct{}

func (discardLog) Printf(context.Context, string, ...any) {}
