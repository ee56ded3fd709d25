package redisstore

import (
	"context"
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
// answers those origins from memory and fetches them on its own, and says
// so in its Health, while the origins of the other masters stay on the
// cluster: the store tells the Fallback which master holds a key (Part).
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

// Part implements store.Parted: on a cluster it names the master that
// serves key's slot ("master 127.0.0.1:7001"), as the client last learnt
// the cluster's layout, so that a store.Fallback sends to memory only the
// keys of a master that fails. It is "" on a single server, and on a
// cluster before any call has answered: Part never asks a server, and the
// layout is not known yet. A master's slots stay its own in the layout
// while it is down, until the cluster gives them to another (a replica
// promoted): their keys are then another master's.
func (s *Store) Part(key string) string {
	cc, ok := s.client.(*redis.ClusterClient)
	if !ok || !s.mapped.Load() {
		return ""
	}
	// With the layout known, MasterForKey reads it without a call.
	c, err := cc.MasterForKey(context.Background(), s.entryKey(key))
	if err != nil {
		return ""
	}
	return "master " + c.Options().Addr
}

// answered records that a call answered: on a cluster, the client knows
// its layout since (see Part).
func (s *Store) answered() {
	if s.hashTag && !s.mapped.Load() {
		s.mapped.Store(true)
	}
}
