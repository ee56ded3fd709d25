module github.com/seed53c283f5/robotstxt

go 1.26.0

require (
	github.com/andybalholm/brotli v1.2.8
	github.com/jlaffaye/ftp v0.2.4
	golang.org/x/net v0.62.0
	golang.org/x/sync v0.24.0
)

require golang.org/x/text v0.43.0 // indirect
