module github.com/seed53c283f5/robotstxt/bench

go 1.26.0

replace github.com/seed53c283f5/robotstxt => ../

require (
	github.com/jimsmart/grobotstxt v1.0.3
	github.com/seed53c283f5/robotstxt v0.0.0-00010101000000-000000000000
	github.com/temoto/robotstxt v1.1.2
)
