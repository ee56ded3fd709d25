package guard

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/seed53c283f5/robotstxt"
)

// Mode says whether the guard acts on its decisions.
type Mode uint8

// The modes.
const (
	// ModeLog decides and records, and blocks nothing: the default.
	ModeLog Mode = iota
	// ModeEnforce answers with the policy's actions.
	ModeEnforce
)

// String returns "log" or "enforce".
func (m Mode) String() string {
	if m == ModeEnforce {
		return "enforce"
	}
	return "log"
}

// ParseMode reads "log" or "enforce".
func ParseMode(s string) (Mode, error) {
	switch s {
	case "log":
		return ModeLog, nil
	case "enforce":
		return ModeEnforce, nil
	}
	return 0, fmt.Errorf("unknown mode %q (want log or enforce)", s)
}

// MarshalText writes the mode's name.
func (m Mode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a mode's name.
func (m *Mode) UnmarshalText(b []byte) error {
	v, err := ParseMode(string(b))
	if err == nil {
		*m = v
	}
	return err
}

// Record says which decisions go to the decision log.
type Record uint8

// What is recorded.
const (
	// RecordCrawlers records every request that claims a known crawler,
	// whatever the outcome: the default.
	RecordCrawlers Record = iota
	// RecordAll records every request, browsers' too.
	RecordAll
	// RecordActed records the decisions the policy acts on (or, in log
	// mode, would act on): those whose action is not allow.
	RecordActed
)

var recordNames = [...]string{"crawlers", "all", "acted"}

// String returns "crawlers", "all" or "acted".
func (r Record) String() string {
	if int(r) < len(recordNames) {
		return recordNames[r]
	}
	return fmt.Sprintf("record(%d)", uint8(r))
}

// Actions holds an action per outcome; the zero Action where the table
// says nothing.
type Actions [numOutcomes]Action

// Tarpit bounds the tarpit action.
type Tarpit struct {
	// Duration is how long a tarpitted answer takes, its bytes spread
	// over it.
	Duration time.Duration
	// Max is how many tarpitted connections are held at once; past it,
	// the action answers 403 at once.
	Max int
}

// The defaults a policy starts from (docs/guard.md, "The policy").
const (
	DefaultTarpitDuration = 30 * time.Second
	DefaultTarpitMax      = 32
	// MaxTarpitDuration and MaxTarpitMax bound what a policy may ask.
	MaxTarpitDuration = 5 * time.Minute
	MaxTarpitMax      = 4096
)

// DefaultActions are the actions of enforce mode where the policy says
// nothing: a crawler's claim on a disallowed path gets 403, verified or
// not (it asked as that crawler); a spoofed claim 403 on every path but
// the rules; a refused preference and an early return are logged.
var DefaultActions = Actions{
	OutcomePass:                 ActionAllow,
	OutcomeNotCrawler:           ActionAllow,
	OutcomeRulesPath:            ActionAllow,
	OutcomeDisallowedVerified:   Action403,
	OutcomeDisallowedUnverified: Action403,
	OutcomeSpoofed:              Action403,
	OutcomePreferenceRefused:    ActionLog,
	OutcomeOverCrawlDelay:       ActionLog,
}

// Policy is what the guard does with each outcome, per crawler class.
// Read one with LoadPolicy or ParsePolicy; DefaultPolicy is the safe
// default. A Policy handed to a Guard must not be changed afterwards:
// build a new one and call SetPolicy.
type Policy struct {
	// Name is where it was read from ("" for the built-in default).
	Name string
	Mode Mode
	// Price is the crawler-price of a 402 ("USD 0.01").
	Price  string
	Record Record
	Tarpit Tarpit
	// Actions are the policy's actions per outcome for every crawler,
	// over DefaultActions.
	Actions Actions
	// Purposes and Behaviours are actions for the crawlers of a class
	// (one purpose or behaviour each); Crawlers for one crawler, by its
	// catalogue name. A crawler's own table comes first, then its
	// behaviours', then its purposes', then Actions; among several
	// classes of a crawler that name an outcome, the strictest action
	// counts (allow, log, 429, 402, 403, tarpit, mildest first).
	Purposes   map[robotstxt.Purpose]Actions
	Behaviours map[robotstxt.Behaviour]Actions
	Crawlers   map[string]Actions
}

// DefaultPolicy returns the policy of a guard given none: mode log,
// DefaultActions.
func DefaultPolicy() *Policy {
	return &Policy{Tarpit: Tarpit{Duration: DefaultTarpitDuration, Max: DefaultTarpitMax}}
}

// ActionFor returns the action the policy takes, in enforce mode, for
// outcome o of a request that claims crawler c (nil: no known crawler).
func (p *Policy) ActionFor(c *robotstxt.Crawler, o Outcome) Action {
	if o == OutcomeNotCrawler || o == OutcomeRulesPath || c == nil {
		return ActionAllow
	}
	if a, ok := p.Crawlers[c.Name]; ok && a[o] != 0 {
		return a[o]
	}
	if a := p.behaviourAction(c, o); a != 0 {
		return a
	}
	if a := strictest(p.Purposes, c.Purposes, o); a != 0 {
		return a
	}
	if a := p.Actions[o]; a != 0 {
		return a
	}
	return DefaultActions[o]
}

// classSet is a set of classes (robotstxt.Purpose, robotstxt.Behaviour).
type classSet interface {
	~uint16
}

func strictest[K classSet](m map[K]Actions, of K, o Outcome) Action {
	var best Action
	for k, a := range m {
		if of&k != 0 && a[o] != 0 && (best == 0 || actionRank[a[o]] > actionRank[best]) {
			best = a[o]
		}
	}
	return best
}

// LoadPolicy reads a policy file (TOML; docs/guard.md, "The policy").
func LoadPolicy(path string) (*Policy, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("guard: policy: %w", err)
	}
	return ParsePolicy(path, data)
}

// policyFile is the file's shape.
type policyFile struct {
	Mode      string                       `toml:"mode"`
	Price     string                       `toml:"price"`
	Record    string                       `toml:"record"`
	Tarpit    tarpitFile                   `toml:"tarpit"`
	Actions   map[string]Action            `toml:"actions"`
	Purpose   map[string]map[string]Action `toml:"purpose"`
	Behaviour map[string]map[string]Action `toml:"behaviour"`
	Crawler   map[string]map[string]Action `toml:"crawler"`
}

type tarpitFile struct {
	Duration string `toml:"duration"`
	Max      *int   `toml:"max"`
}

// UnmarshalTOML reads an action written as a string ("403") or as a
// number (403).
func (a *Action) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case string:
		if x == "" {
			return errors.New("an empty action (want allow, log, 403, 402, 429 or tarpit)")
		}
		return a.UnmarshalText([]byte(x))
	case int64:
		return a.UnmarshalText([]byte(strconv.FormatInt(x, 10)))
	}
	return fmt.Errorf("an action is a string (allow, log, 403, 402, 429 or tarpit), not %T", v)
}

// pricePattern is a crawler-price as Cloudflare writes it: a currency
// code and an amount ("USD 0.01").
var pricePattern = regexp.MustCompile(`^[A-Z]{3} [0-9]{1,9}(\.[0-9]{1,6})?$`)

// tomlLineError is the form of the decoder's errors of a value's type.
var tomlLineError = regexp.MustCompile(`^toml: line ([0-9]+) \(last key "([^"]*)"\): (.*)$`)

// ParsePolicy reads a policy from data; name (a file name) starts its
// errors, which name the line.
func ParsePolicy(name string, data []byte) (*Policy, error) {
	var f policyFile
	md, err := toml.Decode(string(data), &f)
	lines := keyLines(data)
	fail := func(line int, format string, args ...any) error {
		if line > 0 {
			return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
		}
		return fmt.Errorf("%s: %s", name, fmt.Sprintf(format, args...))
	}
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fail(pe.Position.Line, "%s", pe.Message)
		}
		if m := tomlLineError.FindStringSubmatch(err.Error()); m != nil {
			n, _ := strconv.Atoi(m[1])
			return nil, fail(n, "%s: %s", m[2], m[3])
		}
		return nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "toml: "))
	}
	if und := md.Undecoded(); len(und) > 0 {
		k := und[0]
		return nil, fail(lines.of(k...), "unknown key %q (want mode, price, record, [tarpit], [actions], [purpose.NAME], [behaviour.NAME], [crawler.NAME])", k.String())
	}
	p := DefaultPolicy()
	p.Name = name
	if f.Mode != "" {
		if p.Mode, err = ParseMode(f.Mode); err != nil {
			return nil, fail(lines.of("mode"), "%v", err)
		}
	}
	if f.Price != "" {
		if !pricePattern.MatchString(f.Price) {
			return nil, fail(lines.of("price"), "price %q: want a currency code and an amount, as in \"USD 0.01\"", f.Price)
		}
		p.Price = f.Price
	}
	switch f.Record {
	case "", "crawlers":
	case "all":
		p.Record = RecordAll
	case "acted":
		p.Record = RecordActed
	default:
		return nil, fail(lines.of("record"), "record %q: want crawlers, all or acted", f.Record)
	}
	if f.Tarpit.Duration != "" {
		d, err := time.ParseDuration(f.Tarpit.Duration)
		if err != nil || d <= 0 || d > MaxTarpitDuration {
			return nil, fail(lines.of("tarpit", "duration"), "tarpit duration %q: want a duration from 1s to %v, as in \"30s\"", f.Tarpit.Duration, MaxTarpitDuration)
		}
		p.Tarpit.Duration = d
	}
	if f.Tarpit.Max != nil {
		if *f.Tarpit.Max < 1 || *f.Tarpit.Max > MaxTarpitMax {
			return nil, fail(lines.of("tarpit", "max"), "tarpit max %d: want 1 to %d connections", *f.Tarpit.Max, MaxTarpitMax)
		}
		p.Tarpit.Max = *f.Tarpit.Max
	}
	table := func(path []string, m map[string]Action) (Actions, error) {
		var a Actions
		for k, act := range m {
			o, err := ParseOutcome(k)
			if err != nil || o == OutcomeNotCrawler || o == OutcomeRulesPath {
				at := lines.of(append(path, k)...)
				if err == nil {
					return a, fail(at, "%s: the policy cannot act on %s: browsers, unknown clients and the rules always pass", k, k)
				}
				return a, fail(at, "unknown outcome %q in [%s] (want pass, disallowed-verified, disallowed-unverified, spoofed, preference-refused, over-crawl-delay)", k, strings.Join(path, "."))
			}
			a[o] = act
		}
		return a, nil
	}
	if p.Actions, err = table([]string{"actions"}, f.Actions); err != nil {
		return nil, err
	}
	for _, k := range sortedKeys(f.Purpose) {
		pu, perr := robotstxt.ParsePurpose(k)
		if perr != nil || pu == 0 || strings.Contains(k, ",") {
			return nil, fail(lines.of("purpose", k), "unknown purpose %q (want one of %s)", k, purposeList())
		}
		a, err := table([]string{"purpose", k}, f.Purpose[k])
		if err != nil {
			return nil, err
		}
		if p.Purposes == nil {
			p.Purposes = map[robotstxt.Purpose]Actions{}
		}
		p.Purposes[pu] = merge(p.Purposes[pu], a)
	}
	for _, k := range sortedKeys(f.Behaviour) {
		a, err := table([]string{"behaviour", k}, f.Behaviour[k])
		if err != nil {
			return nil, err
		}
		if err := p.addBehaviour(k, a); err != nil {
			return nil, fail(lines.of("behaviour", k), "%v", err)
		}
	}
	for _, k := range sortedKeys(f.Crawler) {
		c, ok := robotstxt.LookupCrawler(k)
		if !ok {
			return nil, fail(lines.of("crawler", k), "unknown crawler %q: the catalogue has no crawler of that name (robotstxt crawlers lists them)", k)
		}
		a, err := table([]string{"crawler", k}, f.Crawler[k])
		if err != nil {
			return nil, err
		}
		if p.Crawlers == nil {
			p.Crawlers = map[string]Actions{}
		}
		p.Crawlers[c.Name] = merge(p.Crawlers[c.Name], a)
	}
	if p.Price == "" && p.uses(Action402) {
		return nil, fail(lines.first402, "a 402 needs a price: add price = \"USD 0.01\" (the crawler-price header it answers with)")
	}
	return p, nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// merge puts b's actions over a's.
func merge(a, b Actions) Actions {
	for o, act := range b {
		if act != 0 {
			a[o] = act
		}
	}
	return a
}

// uses reports whether any table of the policy names action a.
func (p *Policy) uses(a Action) bool {
	has := func(t Actions) bool {
		for _, x := range t {
			if x == a {
				return true
			}
		}
		return false
	}
	if has(p.Actions) {
		return true
	}
	for _, t := range p.Purposes {
		if has(t) {
			return true
		}
	}
	for _, t := range p.behaviourTables() {
		if has(t) {
			return true
		}
	}
	for _, t := range p.Crawlers {
		if has(t) {
			return true
		}
	}
	return false
}

// keyIndex maps a key's path ("purpose\x00ai-training\x00spoofed") to the
// line it is written on, and a table's path to its header's line: what
// the decoder does not say of a key it did not decode.
type keyIndex struct {
	at       map[string]int
	first402 int
}

func (k keyIndex) of(path ...string) int {
	for n := len(path); n > 0; n-- {
		if l, ok := k.at[strings.Join(path[:n], "\x00")]; ok {
			return l
		}
	}
	return 0
}

// keyLines finds the line of each key and table header of a TOML file
// as policies write them: "[a.b]" headers and "key = value" lines, keys
// bare or quoted, dotted or not.
func keyLines(data []byte) keyIndex {
	ix := keyIndex{at: map[string]int{}}
	var table []string
	for n, line := range bytes.Split(data, []byte("\n")) {
		s := strings.TrimSpace(string(line))
		if s == "" || s[0] == '#' {
			continue
		}
		if s[0] == '[' {
			end := strings.LastIndexByte(s, ']')
			if end < 0 {
				continue
			}
			table = splitKey(strings.Trim(s[:end], "[]"))
			if _, ok := ix.at[strings.Join(table, "\x00")]; !ok {
				ix.at[strings.Join(table, "\x00")] = n + 1
			}
			continue
		}
		eq := keyEnd(s)
		if eq < 0 {
			continue
		}
		path := append(append([]string{}, table...), splitKey(s[:eq])...)
		ix.at[strings.Join(path, "\x00")] = n + 1
		v := strings.TrimSpace(s[eq+1:])
		if ix.first402 == 0 && (strings.HasPrefix(v, `"402"`) || strings.HasPrefix(v, "'402'") || strings.HasPrefix(v, "402")) {
			ix.first402 = n + 1
		}
	}
	return ix
}

// keyEnd returns the index of the '=' after a line's key, -1 when none.
func keyEnd(s string) int {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '=':
			return i
		}
	}
	return -1
}

// splitKey splits a dotted key into its pieces, unquoted.
func splitKey(s string) []string {
	var out []string
	var cur strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '.':
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		case c == ' ' || c == '\t':
		default:
			cur.WriteByte(c)
		}
	}
	return append(out, strings.TrimSpace(cur.String()))
}

// purposeList names every purpose, for errors.
func purposeList() string {
	var all robotstxt.Purpose
	for _, p := range robotstxt.AllPurposes() {
		all |= p
	}
	return strings.Join(all.Names(), ", ")
}
