package server

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/store"
)

// HistoryVersion is a version of an origin's robots.txt that the
// history holds, with its body.
type HistoryVersion struct {
	Version
	Body []byte
}

// ReadHistory returns the versions of o's robots.txt that a server's
// history recorded in st, oldest first, each with its body; a version
// whose body the store no longer holds is left out. It reads the keys
// the history writes ("history ORIGIN", "history-body ORIGIN HASH"), all
// of them, whatever their age: a caller judging past events by the
// version then in force (robotstxt audit) wants the old ones too. No
// history is no versions, not an error; a damaged list is an error.
func ReadHistory(ctx context.Context, st store.Store, o fetch.Origin) ([]HistoryVersion, error) {
	b, ok, err := st.Get(ctx, listKey(o))
	if err != nil {
		return nil, fmt.Errorf("history of %s: %w", o, err)
	}
	if !ok {
		return nil, nil
	}
	var vs []Version
	if err := json.Unmarshal(b, &vs); err != nil {
		return nil, fmt.Errorf("history of %s: a damaged list: %v", o, err)
	}
	var out []HistoryVersion
	for _, v := range vs {
		if !validHash(v.Hash) {
			continue
		}
		body, ok, err := st.Get(ctx, bodyKey(o, v.Hash))
		if err != nil {
			return nil, fmt.Errorf("history of %s: %w", o, err)
		}
		if ok {
			out = append(out, HistoryVersion{Version: v, Body: body})
		}
	}
	return out, nil
}
