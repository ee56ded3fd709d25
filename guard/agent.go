package guard

import (
	"sync"

	"github.com/seed53c283f5/robotstxt/audit"
)

// The User-Agent headers whose crawler is kept: at most maxAgents of
// them, each at most maxAgentLen bytes (longer ones are looked up each
// time); past the count the cache starts again empty.
const (
	maxAgents   = 4096
	maxAgentLen = 512
)

// uaCache keeps the crawler each User-Agent header claims (the
// catalogue's Identify, the one reading of a header every face uses):
// a site sees the same few hundred headers again and again.
type uaCache struct {
	mu sync.RWMutex
	m  map[string]int32
}

// identify returns the index in cat of the crawler ua claims, -1 for
// none.
func (c *uaCache) identify(cat *audit.Catalogue, ua string) int {
	c.mu.RLock()
	i, ok := c.m[ua]
	c.mu.RUnlock()
	if ok {
		return int(i)
	}
	n := cat.Identify(ua)
	if len(ua) <= maxAgentLen {
		c.mu.Lock()
		if c.m == nil || len(c.m) >= maxAgents {
			c.m = make(map[string]int32, 64)
		}
		c.m[ua] = int32(n)
		c.mu.Unlock()
	}
	return n
}

// len returns the headers kept.
func (c *uaCache) len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}
