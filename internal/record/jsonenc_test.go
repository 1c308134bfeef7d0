package record

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const trickyString = "a\"b\\c\n\r\t\b\f\x01\x1f\x7f<>& \u2028\u2029 é 日本 \U0001F600 \xff\xfe \xe6\x97"

// requireAllSet fails when a field of v is its zero value: the full
// samples below must set every field, so a field added to Meta or Footer
// without a line in its encoder fails the comparison instead of passing
// by being empty.
func requireAllSet(t *testing.T, v any) {
	t.Helper()
	rv := reflect.ValueOf(v)
	for i := range rv.NumField() {
		require.False(t, rv.Field(i).IsZero(), "the full sample leaves %s.%s unset: set it here and encode it", rv.Type().Name(), rv.Type().Field(i).Name)
	}
}

func TestEncodeMetaIsMarshalIndent(t *testing.T) {
	zone := time.FixedZone("x", 5*3600+30*60)
	full := Meta{
		Format: FormatVersion, Session: "claude-0b7e", Name: "0042-git-push", Seq: 42,
		Argv: []string{"git", "push", trickyString, ""}, Cwd: "/work/" + trickyString,
		StartedAt: time.Date(2026, 11, 30, 8, 15, 1, 123456789, zone), RacVersion: "0.1.0-dev",
		Mode: ModePipes, Streams: []string{Stdout, Stderr}, Redact: true, PID: 31337,
		MaxBytes: 64 << 20, HeadBytes: 1 << 20, Parent: "user-ann/0041-make",
		Source: SourceStdin,
	}
	requireAllSet(t, full)
	for name, m := range map[string]Meta{
		"full":        full,
		"zero":        {},
		"empty lists": {Argv: []string{}, Streams: []string{}, StartedAt: time.Unix(0, 0).UTC()},
		"whole second": {Argv: []string{"true"}, StartedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
			Streams: []string{Stdout}},
	} {
		want, werr := json.MarshalIndent(m, "", "  ")
		got, gerr := encodeMeta(&m)
		require.NoError(t, werr, name)
		require.NoError(t, gerr, name)
		require.Equal(t, string(want), string(got), name)
	}
}

func TestEncodeFooterIsMarshalIndent(t *testing.T) {
	code := 3
	full := Footer{
		Format: FormatVersion, Status: StatusExited, ExitCode: &code, Signal: "SIGTERM",
		OutcomeFrom: "--status-from " + trickyString,
		EndedAt:     time.Date(2026, 11, 30, 8, 15, 2, 5000, time.UTC),
		Received:    map[string]Counts{Stdout: {Bytes: 10, Lines: 2}, Stderr: {Bytes: 1, Lines: 1}},
		Stored:      map[string]Counts{Stdout: {Bytes: 9, Lines: 2}},
		Redactions:  map[string]int{"github-token": 2, "env:GH_TOKEN": 1, trickyString: 3},
		BrokenOff:   true, Notes: []string{"drain timed out", trickyString},
		Truncated: true,
		Cut: map[string]StreamCut{
			Stdout: {HeadEnd: 1, KeptFrom: 2, DroppedBytes: 3, DroppedLines: 4, HeadLines: 5},
			Stderr: {HeadEnd: 6},
		},
		Disk:  &Disk{Bytes: 4096, Newest: time.Date(2026, 11, 30, 8, 15, 2, 999, time.UTC), Inode: 1 << 40},
		Agent: &AgentNote{Kind: "claude-code", Format: "stream-json", Version: "2.1.328", Stream: Stdout, Model: trickyString, Outcome: "success", Frames: 7},
	}
	requireAllSet(t, full)
	requireAllSet(t, *full.Agent)
	zero := 0
	for name, f := range map[string]Footer{
		"full": full,
		"zero": {},
		"empty maps": {ExitCode: &zero, Received: map[string]Counts{}, Stored: map[string]Counts{},
			Redactions: map[string]int{}, Cut: map[string]StreamCut{}, Notes: []string{}},
		"signaled": {Status: StatusSignaled, Signal: "SIGKILL", EndedAt: time.Unix(1700000000, 0),
			Received: map[string]Counts{Stdout: {}}, Stored: map[string]Counts{Stdout: {}}, Disk: &Disk{},
			Agent: &AgentNote{Kind: "codex", Format: "exec-json", Stream: Combined}},
	} {
		want, werr := json.MarshalIndent(f, "", "  ")
		got, gerr := encodeFooter(&f)
		require.NoError(t, werr, name)
		require.NoError(t, gerr, name)
		require.Equal(t, string(want), string(got), name)
	}
}

func TestEncodeRefusesATimeJSONCannotHold(t *testing.T) {
	m := Meta{StartedAt: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}
	_, err := encodeMeta(&m)
	require.Error(t, err)
	f := Footer{EndedAt: time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)}
	_, err = encodeFooter(&f)
	require.Error(t, err)
}

func FuzzJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", trickyString, "\x00", "\u2028", "\xed\xa0\x80", "<script>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		require.Equal(t, string(want), string(appendJSONString(nil, s)))
	})
}
