package main

import "io"

func runGuardExport(args []string, stdout, stderr io.Writer) int {
	complain(stderr, "guard export", "not built yet")
	return 2
}

func guardCheckPolicy(file string, stdout, stderr io.Writer) int {
	complain(stderr, "guard", "not built yet")
	return 2
}
