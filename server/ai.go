package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/tester"
)

// The AI routes: POST /v1/ai, the site owner's view of AI crawlers
// (tester.AI, "robotstxt ai --json"), and POST /v1/policy, a file written
// from stances towards crawlers (tester.Policy, "robotstxt policy
// --json").

// AIRequest is the body of POST /v1/ai.
type AIRequest struct {
	Robots *string `json:"robots"`
	Origin string  `json:"origin"`
	// URLs are asked about ("/" when none).
	URLs []string `json:"urls"`
	// Crawlers are names from the catalogue, or product tokens the file
	// names; none: the default AI set and the crawlers the file names.
	Crawlers []string `json:"crawlers"`
	// All asks about the whole catalogue and every token the file names.
	All bool `json:"all"`
}

// PolicyRequest is the body of POST /v1/policy.
type PolicyRequest struct {
	Robots *string `json:"robots"`
	Origin string  `json:"origin"`
	// Deny and Allow are purposes of the catalogue (GET /v1/crawlers
	// lists their names); each item may name several, separated by
	// commas.
	Deny  []string `json:"deny"`
	Allow []string `json:"allow"`
	// DenyCrawlers and AllowCrawlers are crawlers from the catalogue, or
	// product tokens it does not know; they win over the purposes.
	DenyCrawlers  []string `json:"deny_crawlers"`
	AllowCrawlers []string `json:"allow_crawlers"`
}

// AIInput is a validated POST /v1/ai.
type AIInput struct {
	Subject
	URLs     []string
	Crawlers []string // as given: the tester looks them up in the file too
	All      bool
}

// PolicyInput is a validated POST /v1/policy.
type PolicyInput struct {
	Subject
	Deny, Allow                 robotstxt.Purpose
	DenyCrawlers, AllowCrawlers []string
}

func (s *Server) aiInput(req *AIRequest) (*AIInput, *Error) {
	sub, e := s.subject(req.Robots, req.Origin)
	if e != nil {
		return nil, e
	}
	if e := checkURLs(req.URLs, false); e != nil {
		return nil, e
	}
	if e := checkAgents("crawlers", req.Crawlers); e != nil {
		return nil, e
	}
	return &AIInput{Subject: sub, URLs: req.URLs, Crawlers: req.Crawlers, All: req.All}, nil
}

func (s *Server) policyInput(req *PolicyRequest) (*PolicyInput, *Error) {
	sub, e := s.subject(req.Robots, req.Origin)
	if e != nil {
		return nil, e
	}
	in := &PolicyInput{Subject: sub}
	for _, p := range []struct {
		field string
		list  []string
		into  *robotstxt.Purpose
	}{{"deny", req.Deny, &in.Deny}, {"allow", req.Allow, &in.Allow}} {
		if len(p.list) > MaxNames {
			return nil, badField(p.field, "%d purposes, more than %d", len(p.list), MaxNames)
		}
		for i, v := range p.list {
			q, err := robotstxt.ParsePurpose(v)
			if err != nil || q == 0 {
				msg := "no purpose given (GET /v1/crawlers lists them)"
				if err != nil {
					msg = strings.TrimPrefix(err.Error(), "robotstxt: ")
				}
				return nil, badField(fmt.Sprintf("%s[%d]", p.field, i), "%s", msg)
			}
			*p.into |= q
		}
	}
	if both := in.Deny & in.Allow; both != 0 {
		return nil, badField("allow", "%s is both denied and allowed", both)
	}
	// Each name once, in one list: a name both denied and allowed is
	// refused here, where the list it is in is known.
	stance := map[string]string{} // the crawler's name, lower case: the list's field
	for _, l := range []struct {
		field string
		names []string
		into  *[]string
	}{{"deny_crawlers", req.DenyCrawlers, &in.DenyCrawlers}, {"allow_crawlers", req.AllowCrawlers, &in.AllowCrawlers}} {
		if e := checkAgents(l.field, l.names); e != nil {
			return nil, e
		}
		for i, n := range l.names {
			n = strings.TrimSpace(n)
			name := n
			if c, ok := robotstxt.LookupCrawler(n); ok {
				name = c.Name
			} else if !robotstxt.ValidToken(n) {
				return nil, badField(fmt.Sprintf("%s[%d]", l.field, i), "unknown crawler %q%s, and not a product token (letters, digits, '-' and '_'); GET /v1/crawlers lists the catalogue", clip(n), didYouMean(nearCrawler(n)))
			}
			key := strings.ToLower(name)
			if f, seen := stance[key]; seen && f != l.field {
				return nil, badField(fmt.Sprintf("%s[%d]", l.field, i), "%s is both denied and allowed", name)
			}
			stance[key] = l.field
			*l.into = append(*l.into, n)
		}
	}
	if in.Deny|in.Allow == 0 && len(in.DenyCrawlers)+len(in.AllowCrawlers) == 0 {
		return nil, badField("deny", "no stance: give deny or allow (purposes), or deny_crawlers or allow_crawlers")
	}
	return in, nil
}

// The estimates of the AI routes' answers, in bytes of JSON.
const (
	aiCrawlerBytes = 1200 // a crawler: its names, catalogue facts, group, signals
	aiAnswerBytes  = 260  // a URL's answer beside the URL: verdict, rule, usage
	aiFindingBytes = 900  // a finding, with a few lines' text
	// aiLiveTokens is how many tokens the catalogue does not know a live
	// file is taken to name, for a request with all: a file read later
	// that names more is refused (413) rather than answered past the
	// memory its request holds.
	aiLiveTokens = 256
)

// aiRows is how many crawlers an AI request asks about, at most, given
// the file's user-agent lines (ua; a live file not fetched yet: -1).
func aiRows(in *AIInput, ua int) int {
	switch {
	case len(in.Crawlers) > 0:
		return len(in.Crawlers)
	case in.All && ua < 0:
		return len(robotstxt.Crawlers()) + aiLiveTokens
	case in.All:
		return len(robotstxt.Crawlers()) + ua
	case ua < 0:
		ua = tester.MaxFileRows
	}
	return len(tester.DefaultAICrawlers()) + min(ua, tester.MaxFileRows)
}

// fileCounts returns what an AI report on r answers for: the user-agent
// lines that name a crawler (not *), the most crawlers the file names;
// and the groups that name a token that fetches nothing (each gets a
// finding).
func fileCounts(r *robotstxt.Robots) (agents, tokenGroups int) {
	for _, g := range r.Groups() {
		token := false
		for _, a := range g.Agents {
			if a.Global {
				continue
			}
			agents++
			if c, ok := robotstxt.CrawlerNamed(a.Value); ok && c.Control {
				token = true
			}
		}
		if token {
			tokenGroups++
		}
	}
	return agents, tokenGroups
}

// aiCostOf is the cost of an AI request asking about rows crawlers, of a
// file with tokenGroups groups that name a token that fetches nothing.
func aiCostOf(in *AIInput, rows, tokenGroups int) cost {
	u, ub := int64(len(in.URLs)), urlBytes(in.URLs)
	if u == 0 {
		u, ub = 1, 1
	}
	// Every crawler and the * group, each answering every URL; findings:
	// a few a crawler at most, and one a token's group.
	findings := int64(3*rows + 2 + tokenGroups)
	answer := int64(rows+1)*(aiCrawlerBytes+u*aiAnswerBytes+2*ub) + ub + findings*aiFindingBytes
	return cost{what: "AI report", urls: int(u), subjects: rows + 1, questions: u * int64(rows+1), answer: answer,
		memory: liveCost(&in.Subject) + builtFactor*answer}
}

// aiLiveTokenGroups is how many groups naming a token that fetches
// nothing a live file is taken to have, before it is read.
const aiLiveTokenGroups = 16

// aiCost is the cost of an AI request before it runs: of an inline
// file, as it names crawlers; of a live one, as a usual file would. It
// holds what the report builds on the file (aiBuildCost) too.
func (s *Server) aiCost(in *AIInput) cost {
	if in.Live != nil {
		c := aiCostOf(in, aiRows(in, -1), aiLiveTokenGroups)
		c.memory += int64(aiReadings(in)) * usageFactor * liveUsageBytes
		return c
	}
	src := s.parsed.source(inlineName, in.Robots)
	agents, groups := fileCounts(src.Robots)
	rows := aiRows(in, agents)
	c := aiCostOf(in, rows, groups)
	c.memory += aiBuildCost(in, src, rows)
	return c
}

// aiBuildCost bounds what an AI report of rows crawlers builds on the
// file, held in flight while it runs: in each reading its crawlers use, the rule sets and the
// usage table (robotstxt.Robots.Footprint bounds a reading's), and a
// decider a crawler. What stays on a kept file is weighed by the parse
// cache after the report (sourceLRU.reweigh).
func aiBuildCost(in *AIInput, src *tester.Source, rows int) int64 {
	return int64(aiReadings(in))*src.Robots.Footprint() + int64(rows+1)*aiDeciderBytes
}

// aiDeciderBytes bounds a crawler's decider and its usage state.
const aiDeciderBytes = 4 << 10

// aiReadings counts the readings an AI request's crawlers use.
func aiReadings(in *AIInput) int {
	var cs []robotstxt.Crawler
	switch {
	case len(in.Crawlers) > 0:
		for _, n := range in.Crawlers {
			if c, ok := robotstxt.LookupCrawler(n); ok {
				cs = append(cs, c)
			}
		}
		return readingsOf(robotstxt.DefaultDialect, cs, true)
	case in.All:
		cs = robotstxt.Crawlers()
	default:
		for _, n := range tester.DefaultAICrawlers() {
			if c, ok := robotstxt.LookupCrawler(n); ok {
				cs = append(cs, c)
			}
		}
	}
	// The crawlers the file names are read in Google's reading.
	return readingsOf(robotstxt.DefaultDialect, cs, true)
}

// aiLiveLimits refuses an AI request about a live file, once read, that
// asks more than its limits or than its cost before the fetch allowed for
// (a file that names more tokens): 413.
func (s *Server) aiLiveLimits(in *AIInput, src *tester.Source) error {
	agents, groups := fileCounts(src.Robots)
	c := aiCostOf(in, aiRows(in, agents), groups)
	if e := s.checkLimits(c); e != nil {
		return e
	}
	if held := s.aiCost(in); c.memory > held.memory {
		return &Error{Status: http.StatusRequestEntityTooLarge, Field: "origin", Message: fmt.Sprintf(
			"the live file has %d user-agent lines: its report would need about %s of memory, more than this server holds for a live file's (%s); name the crawlers to ask about, or fewer URLs",
			agents, sizeString(c.memory), sizeString(held.memory))}
	}
	return nil
}

// The estimates of a policy's answer.
const (
	policyStanceBytes = 160 // a crawler of the stances
	policyLineBytes   = 48  // a line the policy adds (a user-agent line)
)

// policyCost is the cost of a policy: its new file, the diff from the
// old, the crawlers of its stances, and the verdicts that change, derived
// from both files' rules for * and every crawler of its stances. Those
// are bounded by the tester (tester.DiffQuestions), not by the service;
// as for a diff that derives its URLs, the worst case (every probe a
// change for every crawler) is held, at most all of the work's memory.
func (s *Server) policyCost(in *PolicyInput) cost {
	rows := 1 + len(in.DenyCrawlers) + len(in.AllowCrawlers)
	for _, c := range robotstxt.Crawlers() {
		if c.Purposes.Any(in.Deny | in.Allow) {
			rows++
		}
	}
	size, rules := int64(robotstxt.DefaultMaxBytes), 0
	c := cost{what: "policy", subjects: rows, memory: liveCost(&in.Subject)}
	if in.Live == nil {
		src := s.parsed.source(inlineName, in.Robots)
		size = int64(len(src.Body))
		rules = ruleCount(src.Robots, robotstxt.Google)
		// The file parsed again: as merged, as written, and by the diff.
		c.memory += 3 * parseWeight(src.Body)
	} else {
		c.memory += 3 * parseFactor * robotstxt.DefaultMaxBytes
	}
	// The new file: the old one and a line a crawler; the diff: both.
	grown := size + int64(rows)*policyLineBytes
	answer := grown + 2*(size+grown) + int64(rows)*policyStanceBytes
	// The verdicts: the old file's rules, the new one's (and its group
	// for the stances), in two readings.
	n := 2*rules + 2
	probes := int64(min(tester.DiffQuestions(n), 1+probesPerRule*2*n))
	if in.Live != nil {
		probes = int64(tester.DiffQuestions(0))
	}
	verdicts := int64(rows) * probes * (diffChangeBytes + 48)
	c.answer = answer
	c.memory += builtFactor * answer
	c.memory += min(builtFactor*verdicts, max(s.admit.work.capacity-c.memory, 0))
	return c
}

func (s *Server) handleAI(w http.ResponseWriter, r *http.Request) {
	answerPost(s, w, r, decodeAny[AIRequest], s.aiInput, s.aiCost, s.opts.Engine.AI, func(in *AIInput) []sizeFile {
		return []sizeFile{{"robots", in.Truncated, len(in.Robots)}}
	})
}

func (s *Server) handlePolicy(w http.ResponseWriter, r *http.Request) {
	answerPost(s, w, r, decodeAny[PolicyRequest], s.policyInput, s.policyCost, s.opts.Engine.Policy, func(*PolicyInput) []sizeFile {
		return nil // a file past the limit is refused: it cannot be rewritten whole
	})
}

// AI answers POST /v1/ai with tester.AI: the object of "robotstxt ai
// --json". A live file is read first, then held to the limits (it may
// name more crawlers than the request's cost allowed for).
func (e *testerEngine) AI(ctx context.Context, in *AIInput) (any, error) {
	src, err := e.source(ctx, &in.Subject, robotstxt.DefaultDialect)
	if err != nil {
		return nil, err
	}
	if in.Live != nil {
		if err := e.s.aiLiveLimits(in, src); err != nil {
			return nil, err
		}
	}
	rep, err := tester.AI(src, &tester.AIOptions{URLs: in.URLs, Crawlers: in.Crawlers, All: in.All})
	if in.Live == nil {
		e.s.parsed.reweigh(src) // what the report built on a kept file
	}
	if err != nil {
		return nil, apiError(err)
	}
	return rep, nil
}

// Policy answers POST /v1/policy with tester.Policy: the object of
// "robotstxt policy --json". A live origin whose file gives no rules (a
// 404) starts from an empty file, as the command does.
func (e *testerEngine) Policy(ctx context.Context, in *PolicyInput) (any, error) {
	src, err := e.source(ctx, &in.Subject, robotstxt.DefaultDialect)
	if err != nil {
		return nil, err
	}
	rep, err := tester.Policy(&tester.PolicyRequest{Source: src, Deny: in.Deny, Allow: in.Allow,
		DenyCrawlers: in.DenyCrawlers, AllowCrawlers: in.AllowCrawlers})
	if err != nil {
		if te, ok := err.(*tester.Error); ok && te.Field == "robots" && in.Live != nil {
			te.Field = "origin"
		}
		return nil, apiError(err)
	}
	return rep, nil
}
