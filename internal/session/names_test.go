package session

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestValidName(t *testing.T) {
	for _, ok := range []string{"a", "0", "default", "claude-" + uuidA, "a.b_c-d", strings.Repeat("a", 64), "a..b"} {
		assert.True(t, ValidName(ok), "%q", ok)
	}
	for _, bad := range []string{"", "A", "-a", ".a", "_a", "a/b", `a\b`, "a b", "é", "a\x00", strings.Repeat("a", 65), "..", "."} {
		assert.False(t, ValidName(bad), "%q", bad)
	}
}

func TestDerivedName(t *testing.T) {
	tests := []struct{ source, raw, want string }{
		{"claude", uuidA, "claude-" + uuidA},
		{"claude", strings.ToUpper(uuidA), "claude-" + uuidA},
		{"amp", "T-0123", "amp-t-0123-"},
		{"codex", "../../etc/passwd", "codex-etcpasswd-"},
		{"gemini", "\x1b[31m", "gemini-31m-"},
		{"gemini", "@@@", "gemini-"},
	}
	for _, tt := range tests {
		got := DerivedName(tt.source, tt.raw)
		assert.True(t, ValidName(got), "%q", got)
		if strings.HasSuffix(tt.want, "-") {
			assert.True(t, strings.HasPrefix(got, tt.want), "DerivedName(%q, %q) = %q", tt.source, tt.raw, got)
			assert.Len(t, got, len(tt.want)+16)
		} else {
			assert.Equal(t, tt.want, got)
		}
	}

	// The longest label with the longest id still fits.
	long := DerivedName("abcdefghijklmnop", strings.Repeat("x", 200))
	assert.True(t, ValidName(long), "%q (%d bytes)", long, len(long))
	assert.Len(t, long, maxName)
	assert.True(t, ValidName(DerivedName("opencode", strings.Repeat("y", 100))))
	// A label passed by hand that is not a label is made one.
	assert.True(t, ValidName(DerivedName("Not A Label/..", "x")))
	assert.True(t, ValidName(DerivedName("", uuidA)))
}

// canonicalID is the id Identify keys on: trimmed, and a UUID's case does
// not matter (RFC 9562: UUIDs compare case-insensitively).
func canonicalID(raw string) string {
	raw = strings.TrimSpace(raw)
	if isUUID(raw) {
		return strings.ToLower(raw)
	}
	return raw
}

// FuzzDerivedName: every derived name passes the name rules, and two
// different ids never give one name.
func FuzzDerivedName(f *testing.F) {
	for _, seed := range [][3]string{
		{"claude", uuidA, strings.ToUpper(uuidA)},
		{"claude", uuidA, uuidB},
		{"codex", "a", "A"},
		{"codex", "thread-1", "thread-1 "},
		{"amp", "", "-"},
		{"opencode", strings.Repeat("z", 80), strings.Repeat("z", 81)},
		{"goose", "x\x00y", "x\x00z"},
		{"gemini", "0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b-0000000000000000", uuidA},
		{"Weird Source", "é", "e"},
		{"", "", "\xff"},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	f.Fuzz(func(t *testing.T, source, a, b string) {
		na, nb := DerivedName(source, a), DerivedName(source, b)
		if !ValidName(na) || !ValidName(nb) {
			t.Fatalf("invalid name: DerivedName(%q, %q) = %q, DerivedName(%q, %q) = %q", source, a, na, source, b, nb)
		}
		if !utf8.ValidString(na) {
			t.Fatalf("name not UTF-8: %q", na)
		}
		same := a == b || (isUUID(a) && strings.EqualFold(a, b))
		if (na == nb) != same {
			t.Fatalf("ids %q and %q give names %q and %q", a, b, na, nb)
		}
	})
}

// FuzzIdentify feeds arbitrary values to the variables Identify reads: the
// name always passes the name rules, an error is only ever an invalid
// user-given name, and two different ids (or panes) never share a name.
func FuzzIdentify(f *testing.F) {
	f.Add(uuidA, uuidB, "1", "%3", "%4", "")
	f.Add(" x ", "x", "", "%1", "%1", "work")
	f.Add("a/b", "a\\b", "\x1b]0;", "", "\n", "Bad Name")
	f.Add(strings.Repeat("é", 50), strings.Repeat("e", 50), "0", "w0t0p0:"+uuidA, "w1t0p0:"+uuidA, "-x")
	f.Add("", " ", "yes", "\x00", "\x01", strings.Repeat("n", 64))
	f.Fuzz(func(t *testing.T, idA, idB, marker, paneA, paneB, racSession string) {
		names := func(vars map[string]string) (Identity, bool) {
			t.Helper()
			f, _ := chain(terminal(lvl{}, lvl{setsid: true}, lvl{})...)
			id, err := Identify(Options{Getenv: envMap(vars), Proc: f})
			// without the report of the rules not reached: the same session
			q, qerr := Identify(Options{Getenv: envMap(vars), Proc: f, NoReport: true})
			if (qerr == nil) != (err == nil) || q.Name != id.Name || q.Rule != id.Rule || q.FromAgent != id.FromAgent {
				t.Fatalf("NoReport changed the identity for env %q: %+v (%v) vs %+v (%v)", vars, q, qerr, id, err)
			}
			if err == nil && (len(q.Report) == 0 || q.Report[len(q.Report)-1].Rule != id.Rule || !q.Report[len(q.Report)-1].Taken) {
				t.Fatalf("NoReport: the report does not end at the taken rule %s: %+v", id.Rule, q.Report)
			}
			if err != nil {
				if ValidName(vars["RAC_SESSION"]) {
					t.Fatalf("error for env %q: %v", vars, err)
				}
				return id, false
			}
			if !ValidName(id.Name) {
				t.Fatalf("invalid name %q for env %q", id.Name, vars)
			}
			if len(id.Report) != len(Rules) {
				t.Fatalf("report has %d rules", len(id.Report))
			}
			return id, true
		}

		env := map[string]string{"GEMINI_CLI": marker, "RAC_SESSION": racSession, "TMUX": "/tmp/t,1,0", "TMUX_PANE": paneA}
		names(env)
		for _, v := range []string{"CLAUDE_CODE_SESSION_ID", "AMP_CURRENT_THREAD_ID", "OPENCODE_SESSION_ID"} {
			a, okA := names(map[string]string{v: idA})
			b, okB := names(map[string]string{v: idB})
			if !okA || !okB || a.Rule != RuleHarnessID || b.Rule != RuleHarnessID {
				continue
			}
			if (a.Name == b.Name) != (canonicalID(idA) == canonicalID(idB)) {
				t.Fatalf("%s: ids %q and %q give names %q and %q", v, idA, idB, a.Name, b.Name)
			}
		}
		a, _ := names(map[string]string{"TMUX": "/tmp/t,1,0", "TMUX_PANE": paneA})
		b, _ := names(map[string]string{"TMUX": "/tmp/t,1,0", "TMUX_PANE": paneB})
		if a.Rule == RulePane && b.Rule == RulePane && (a.Name == b.Name) != (paneA == paneB) {
			t.Fatalf("panes %q and %q give names %q and %q", paneA, paneB, a.Name, b.Name)
		}
		a, _ = names(map[string]string{"ITERM_SESSION_ID": paneA})
		b, _ = names(map[string]string{"ITERM_SESSION_ID": paneB})
		if a.Rule == RulePane && b.Rule == RulePane && (a.Name == b.Name) != strings.EqualFold(a.RawID, b.RawID) {
			t.Fatalf("iTerm panes %q and %q give names %q and %q", paneA, paneB, a.Name, b.Name)
		}
	})
}
