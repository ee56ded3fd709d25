module github.com/seed53c283f5/robotstxt

go 1.26
