package robotstxt

// The lines of the Web Bot Auth editors' draft that name signing agents
// (read with ExtWebBotAuth), for the groups a crawler obeys: ext.go reads
// them, gathered from the reading's lines of its groups (aiLines) as
// reports ask for them. See docs/protocol.md, "Signing agents".

// SigningAgents are the Signature-Agent and Max-Crawl-Rate lines of the
// groups a crawler obeys (read with ExtWebBotAuth).
type SigningAgents struct {
	// Agents are the groups' Signature-Agent lines, in file order,
	// readable or not (a line that names no host has Host "").
	Agents []SignatureAgent
	// Rate is the first readable Max-Crawl-Rate line of the groups, in
	// file order; Line 0 when none.
	Rate CrawlRate
}

// Names reports whether one of the lines names the signing agent agent
// (a request's Signature-Agent value; see SignatureAgent.Matches).
func (s SigningAgents) Names(agent string) bool {
	for _, a := range s.Agents {
		if a.Matches(agent) {
			return true
		}
	}
	return false
}

// SigningAgents returns the Signature-Agent and Max-Crawl-Rate lines of
// the groups q's crawler obeys, chosen as for Allow and Disallow in q's
// dialect: none unless the file was parsed with ExtWebBotAuth. They do
// not change the crawl decision.
func (r *Robots) SigningAgents(q Query) SigningAgents {
	q.Explain = false
	return r.Decider(q).SigningAgents()
}

// SigningAgents returns the Signature-Agent and Max-Crawl-Rate lines of
// the decider's groups, as Robots.SigningAgents does. A file Yandex
// ignores (over its size limit) has none.
func (p *Decider) SigningAgents() SigningAgents {
	if p.oversized || p.c.ai == nil {
		return SigningAgents{}
	}
	return p.c.signingAgents(p.base.Group.Groups)
}
