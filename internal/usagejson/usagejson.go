// Package usagejson writes the usage and signals members of an answer as
// "robotstxt eval" writes them, so that the commands and the bulk engine
// that answer the same question answer it byte for byte alike.
package usagejson

import (
	"encoding/json"

	"github.com/seed53c283f5/robotstxt"
)

// Encode returns the usage and signals of ua as robotstxt eval writes
// them, for a URL that may be crawled when allowed: usage null when it may
// not, else an object of the preferences (train-ai and search "unknown"
// when no rule says) and the Content-Usage lines that gave them; signals
// null when the crawler's groups have no Content-Signal line, else the
// words of search, ai-train and ai-input (null when unset) and the line.
func Encode(ua robotstxt.UsageAnswer, allowed bool) (usage, signals json.RawMessage) {
	usage, signals = json.RawMessage("null"), json.RawMessage("null")
	if allowed {
		u := map[string]any{robotstxt.UsageTrainAI: "unknown", robotstxt.UsageSearch: "unknown"}
		for _, p := range ua.Usage.Prefs {
			u[p.Key] = p.Pref.String()
		}
		lines := ua.Usage.Lines
		if lines == nil {
			lines = []int{}
		}
		u["lines"] = lines
		usage, _ = json.Marshal(u)
	}
	if s := ua.Signals; s.Line != 0 {
		word := func(v robotstxt.Signal) any {
			if v == robotstxt.SignalUnset {
				return nil
			}
			return v.String()
		}
		signals, _ = json.Marshal(map[string]any{"search": word(s.Search), "ai-train": word(s.AITrain),
			"ai-input": word(s.AIInput), "line": s.Line})
	}
	return usage, signals
}
