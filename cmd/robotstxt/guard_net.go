package main

import "github.com/seed53c283f5/robotstxt/clientip"

// defaultTrustedProxies is guard's --trusted-proxy default: this machine's
// loopback addresses, where nginx or Caddy in front of the guard usually
// run. A client on the internet never connects from loopback, so it cannot
// use the default to choose its address. The client a request comes from
// is decided by clientip.Of, as for every face.
const defaultTrustedProxies = clientip.Loopback
