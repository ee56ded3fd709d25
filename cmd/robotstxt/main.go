// Command robotstxt tests, compares and evaluates robots.txt files.
//
// Run "robotstxt help" for the subcommands.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
