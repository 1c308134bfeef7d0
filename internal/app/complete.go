package app

import (
	"context"
	"slices"
	"strings"
)

// Candidate is one reference a shell may complete, with its recording
// (nil for "last") for the shells that show a description.
type Candidate struct {
	Ref   string
	Entry *ListEntry
}

// Candidates are the recordings of session ("" for the current one) whose
// name (qualified: SESSION/NAME) starts with prefix; "last" leads a short
// list. Errors complete nothing: a shell shows no error of a completion.
func (a *App) Candidates(ctx context.Context, session, prefix string, qualified bool) []Candidate {
	res, err := a.List(ctx, Scope{Session: session})
	if err != nil {
		return nil
	}
	var out []Candidate
	for _, e := range res.Entries {
		ref := e.Name
		if qualified {
			ref = e.Ref
		}
		if strings.HasPrefix(ref, prefix) {
			out = append(out, Candidate{Ref: ref, Entry: &e})
		}
	}
	if !qualified && len(res.Entries) > 0 && strings.HasPrefix("last", prefix) {
		out = append([]Candidate{{Ref: "last"}}, out...)
	}
	return out
}

// SessionsStarting are the sessions of every store whose name starts with
// prefix.
func (a *App) SessionsStarting(prefix string) []string {
	stores, err := a.Stores()
	if err != nil {
		return nil
	}
	defer stores.Close()
	var out []string
	for _, st := range stores {
		names, _ := st.Sessions()
		for _, n := range names {
			if strings.HasPrefix(n, prefix) && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}
