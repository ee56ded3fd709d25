package main

import (
	"time"

	"github.com/seed53c283f5/robotstxt/server"
)

// serveIdentity reads serve's identity flags: the --ip-ranges specs (as
// audit takes them), reverse DNS on or off, its server and its budget
// per request. The service's audit then checks identities as audit
// does.
func serveIdentity(specs []string, dnsOn bool, resolver string, budget time.Duration) (*server.Identity, error) {
	id := &server.Identity{NoDNS: !dnsOn, Resolver: resolver, Budget: budget}
	for _, spec := range specs {
		targets, src, err := rangesTargets(spec)
		if err != nil {
			return nil, err
		}
		id.Lists = append(id.Lists, server.IdentityList{Crawlers: targets, Source: src})
	}
	return id, nil
}
