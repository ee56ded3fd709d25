package fetch

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"github.com/seed53c283f5/robotstxt"
	"golang.org/x/net/idna"
)

// Origin is the scope of one robots.txt file (docs/protocol.md, Scope): a scheme, a host and
// a port. Its rules apply to that origin only, not to other subdomains, other
// schemes or other ports. Origins are comparable with ==: OriginOf folds
// default ports, host case and international names, so equal origins have
// equal fields.
type Origin struct {
	Scheme string // "http", "https" or "ftp"
	// Host is the host name, lower-case and in its ASCII (punycode) form,
	// or an IP address; an IPv6 address is held without brackets.
	Host string
	Port int // always set: 80, 443 and 21 when the URL names none
}

// defaultPorts are the ports a URL may leave out.
var defaultPorts = map[string]int{"http": 80, "https": 443, "ftp": 21}

// ErrScheme is returned by OriginOf for a URL whose scheme has no
// robots.txt (anything but http, https and ftp).
var ErrScheme = errors.New("fetch: only http, https and ftp URLs have a robots.txt")

// idnaProfile maps international host names to their ASCII form as browsers
// and crawlers look them up, without the STD3 rules that would reject the
// underscores real host names sometimes hold.
var idnaProfile = idna.New(idna.MapForLookup(), idna.StrictDomainName(false), idna.Transitional(false), idna.BidiRule())

// OriginOf returns the origin of an absolute URL: "https://Example.COM:443/a"
// and "https://example.com/b" have the same origin, "https://example.com"; an
// international host name is the same host as its punycode form; an IP address
// is its own origin. The error names the URL and what is wrong with it.
//
// The origin is read from the URL's scheme and authority alone
// (robotstxt.URLHead of the URL with its surrounding spaces trimmed): what
// follows is the path that rules are matched against, read as given, so a
// bare '%' or any other byte there is no error. It is the one reading of a
// URL that check, eval, bulk and the service share.
func OriginOf(rawURL string) (Origin, error) {
	u, err := url.Parse(robotstxt.URLHead(strings.TrimSpace(rawURL)))
	if err != nil {
		return Origin{}, fmt.Errorf("fetch: %w", err)
	}
	return originOfURL(u, rawURL)
}

func originOfURL(u *url.URL, rawURL string) (Origin, error) {
	if u.Scheme == "" {
		return Origin{}, fmt.Errorf("fetch: %q is not an absolute URL (no scheme such as https://)", rawURL)
	}
	scheme := strings.ToLower(u.Scheme)
	def, ok := defaultPorts[scheme]
	if !ok {
		return Origin{}, fmt.Errorf("%w: %q", ErrScheme, rawURL)
	}
	host := u.Hostname()
	if host == "" {
		return Origin{}, fmt.Errorf("fetch: %q has no host", rawURL)
	}
	port := def
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return Origin{}, fmt.Errorf("fetch: %q: port %q is not a number from 1 to 65535", rawURL, p)
		}
		port = n
	}
	h, err := canonicalHost(host)
	if err != nil {
		return Origin{}, fmt.Errorf("fetch: %q: host %q: %v", rawURL, host, err)
	}
	return Origin{Scheme: scheme, Host: h, Port: port}, nil
}

// canonicalHost lower-cases a host name and gives an international name its
// ASCII form; IP addresses are written in their standard form.
func canonicalHost(host string) (string, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		if a.Zone() != "" {
			return "", fmt.Errorf("an IPv6 address with a zone (%%%s) names no site", a.Zone())
		}
		return a.String(), nil
	}
	ascii := true
	for i := 0; i < len(host); i++ {
		if host[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if !ascii {
		a, err := idnaProfile.ToASCII(host)
		if err != nil {
			return "", err
		}
		host = a
	}
	for i := 0; i < len(host); i++ {
		if c := host[i]; c <= ' ' || c >= 0x7f || strings.IndexByte("/?#@[]\\%:", c) >= 0 {
			return "", fmt.Errorf("byte %q is not allowed in a host name", c)
		}
	}
	return strings.ToLower(host), nil
}

// hostPort is the host and port as a dialer and a URL authority take them,
// with an IPv6 address in brackets and the default port left out when
// withDefault is false.
func (o Origin) hostPort(withDefault bool) string {
	h := o.Host
	if strings.IndexByte(h, ':') >= 0 {
		h = "[" + h + "]"
	}
	if !withDefault && o.Port == defaultPorts[o.Scheme] {
		return h
	}
	return h + ":" + strconv.Itoa(o.Port)
}

// String returns the origin as "scheme://host" with the port only when it is
// not the scheme's default: "https://example.com", "http://example.com:8080",
// "http://[::1]:8080". It is the cache's key.
func (o Origin) String() string {
	if o.Scheme == "" {
		return ""
	}
	return o.Scheme + "://" + o.hostPort(false)
}

// RobotsURL returns the URL of the origin's robots.txt.
func (o Origin) RobotsURL() string { return o.String() + "/robots.txt" }

// IsZero reports whether o is the zero Origin.
func (o Origin) IsZero() bool { return o == Origin{} }
