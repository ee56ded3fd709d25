package redisstore

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/redis/go-redis/v9"
)

// OpenCluster returns a store on a Redis Cluster, named by a URL of the form
//
//	redis-cluster://[user:password@]host1:port,host2:port,...[?options]
//	rediss-cluster://...                            the same over TLS
//
// or the form go-redis's ParseClusterURL reads
// (redis://host1:port?addr=host2:port&addr=...). The addresses are seeds:
// the client learns the others from the cluster. Options are those of
// ParseClusterURL (dial_timeout=, read_timeout=, ...) and prefix=, as for
// Open; timeouts default to a second, as Open's do.
//
// Every key name carries the origin in a hash tag ("robotstxt:entry:{https://
// example.com}", "robotstxt:lease:{https://example.com}"), so that an
// origin's entry and its lease live in one slot, on one master. When a
// master is lost, the calls for its slots fail until the cluster has moved
// them; wrapped in a store.Fallback, as storeopen does, the cache then
// answers from memory and fetches on its own, and says so in its Health.
func OpenCluster(rawURL string, opts *Options) (*Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	spec := rawURL
	scheme, rest, ok := strings.Cut(rawURL, "://")
	if !ok {
		return nil, fmt.Errorf("redisstore: invalid Redis Cluster URL: want redis-cluster://host:port,host:port")
	}
	switch strings.ToLower(scheme) {
	case "redis-cluster", "rediss-cluster":
		// The host list becomes the first address and addr= parameters.
		hostPart, query, _ := strings.Cut(rest, "?")
		userinfo, hosts, found := strings.Cut(hostPart, "@")
		if !found {
			hosts, userinfo = userinfo, ""
		}
		hosts, _, _ = strings.Cut(hosts, "/")
		addrs := strings.Split(hosts, ",")
		for _, a := range addrs {
			if a == "" {
				return nil, fmt.Errorf("redisstore: invalid Redis Cluster URL: an empty address in %q", redactHosts(hosts))
			}
		}
		var b strings.Builder
		b.WriteString(strings.TrimSuffix(strings.ToLower(scheme), "-cluster") + "://")
		if userinfo != "" {
			b.WriteString(userinfo + "@")
		}
		b.WriteString(addrs[0])
		q, err := url.ParseQuery(query)
		if err != nil {
			return nil, fmt.Errorf("redisstore: invalid Redis Cluster URL: %v", err)
		}
		for _, a := range addrs[1:] {
			q.Add("addr", a)
		}
		spec = b.String()
		if len(q) > 0 {
			spec += "?" + q.Encode()
		}
	}
	u, err := url.Parse(spec)
	if err != nil {
		return nil, fmt.Errorf("redisstore: invalid Redis Cluster URL: %v", err)
	}
	takePrefix(u, &o)
	co, err := redis.ParseClusterURL(u.String())
	if err != nil {
		return nil, fmt.Errorf("redisstore: invalid Redis Cluster URL %s: %v", u.Redacted(), err)
	}
	o.timeouts(&co.DialTimeout, &co.ReadTimeout, &co.WriteTimeout, &co.PoolTimeout)
	if co.MaxRedirects == 0 {
		co.MaxRedirects = 3
	}
	co.ContextTimeoutEnabled = true
	s := New(redis.NewClusterClient(co), &o)
	s.ownClient = true
	return s, nil
}

// redactHosts keeps a host list printable without a password.
func redactHosts(s string) string {
	if i := strings.LastIndexByte(s, '@'); i >= 0 {
		return "xxxxx@" + s[i+1:]
	}
	return s
}
