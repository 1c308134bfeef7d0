package ui

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/record"
)

var listNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func listRows() []ListRow {
	at := func(ago time.Duration) time.Time { return listNow.Add(-ago) }
	end := func(ago, took time.Duration) *time.Time { t := at(ago).Add(took); return &t }
	code := func(n int) *int { return &n }
	return []ListRow{
		{Ref: "s/0001-make", Session: "s", Name: "0001-make", Argv: []string{"make", "test"}, Status: record.StatusExited,
			ExitCode: code(2), StartedAt: at(3 * time.Minute), EndedAt: end(3*time.Minute, 1200*time.Millisecond), Bytes: 3000, DiskBytes: 16 << 10},
		{Ref: "s/0002-git-status", Session: "s", Name: "0002-git-status", Parent: "s/0001-make", Argv: []string{"git", "status"},
			Status: record.StatusExited, ExitCode: code(0), StartedAt: at(3 * time.Minute), EndedAt: end(3*time.Minute, 850*time.Millisecond), Bytes: 212, DiskBytes: 12 << 10},
		{Ref: "s/0003-go-test", Session: "s", Name: "0003-go-test", Argv: []string{"go", "test", "./...", "-run", "Test Total"},
			Status: record.StatusSignaled, Signal: "SIGTERM", StartedAt: at(2 * time.Hour), EndedAt: end(2*time.Hour, 184*time.Second),
			Bytes: 212 << 20, DiskBytes: 19 << 20, Truncated: true},
		{Ref: "s/0004-sleep", Session: "s", Name: "0004-sleep", Argv: []string{"sleep", "100"}, Status: record.StatusRunning,
			StartedAt: at(12 * time.Second), DiskBytes: 12 << 10},
		{Ref: "s/0005-sh", Session: "s", Name: "0005-sh", Parent: "s/0002-git-status", Argv: []string{"sh", "-c", "echo \x1b[2J"},
			Status: record.StatusIncomplete, StartedAt: at(5 * 24 * time.Hour)},
	}
}

// TestListTable is the snapshot of list's table: one session, every
// session, cut to a width, and the tree.
func TestListTable(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    ListOptions
		want string
	}{
		{"one session, never cut", ListOptions{Now: listNow, Session: "s"}, `session s
NAME             STATUS        STARTED    TOOK     SIZE    DISK  COMMAND
0001-make        exit 2        3m ago     1.2s  2.9 KiB  16 KiB  make test
0002-git-status  exit 0        3m ago    850ms    212 B  12 KiB  git status
0003-go-test     SIGTERM, cut  2h ago    3m04s  212 MiB  19 MiB  go test ./... -run 'Test Total'
0004-sleep       running       12s ago  12.0s+      0 B  12 KiB  sleep 100
0005-sh          incomplete    5d ago        -      0 B     0 B  sh -c $'echo \e[2J'
`},
		{"all sessions, 80 columns", ListOptions{Now: listNow, Width: 80}, `REF                STATUS        STARTED    TOOK     SIZE    DISK  COMMAND
s/0001-make        exit 2        3m ago     1.2s  2.9 KiB  16 KiB  make test
s/0002-git-status  exit 0        3m ago    850ms    212 B  12 KiB  git status
s/0003-go-test     SIGTERM, cut  2h ago    3m04s  212 MiB  19 MiB  go test ./..…
s/0004-sleep       running       12s ago  12.0s+      0 B  12 KiB  sleep 100
s/0005-sh          incomplete    5d ago        -      0 B     0 B  sh -c $'echo…
`},
		{"tree", ListOptions{Now: listNow, Session: "s", Tree: true}, `session s
NAME               STATUS        STARTED    TOOK     SIZE    DISK  COMMAND
0001-make          exit 2        3m ago     1.2s  2.9 KiB  16 KiB  make test
└ 0002-git-status  exit 0        3m ago    850ms    212 B  12 KiB  git status
  └ 0005-sh        incomplete    5d ago        -      0 B     0 B  sh -c $'echo \e[2J'
0003-go-test       SIGTERM, cut  2h ago    3m04s  212 MiB  19 MiB  go test ./... -run 'Test Total'
0004-sleep         running       12s ago  12.0s+      0 B  12 KiB  sleep 100
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, ListTable(&b, newPalette(), listRows(), tc.o))
			assert.Equal(t, tc.want, b.String())
		})
	}
}

// TestListTableColour: with colour, each status has its colour and the
// text without the escapes is the uncoloured table, byte for byte.
func TestListTableColour(t *testing.T) {
	on := newPalette()
	on.set(true)
	var plain, coloured bytes.Buffer
	o := ListOptions{Now: listNow, Session: "s", Width: 80}
	require.NoError(t, ListTable(&plain, newPalette(), listRows(), o))
	require.NoError(t, ListTable(&coloured, on, listRows(), o))
	assert.Equal(t, -1, bytes.IndexByte(plain.Bytes(), 0x1b))
	assert.Equal(t, plain.String(), sgr.ReplaceAllString(coloured.String(), ""))
	for _, want := range []string{
		"\x1b[1msession s\x1b[22m\n",
		"\x1b[31mexit 2\x1b[0m", "\x1b[32mexit 0\x1b[0m", "\x1b[31mSIGTERM, cut\x1b[0m",
		"\x1b[33mrunning\x1b[0m", "\x1b[35mincomplete\x1b[0m", "\x1b[2m3m ago\x1b[22m",
	} {
		assert.Contains(t, coloured.String(), want)
	}
}

// TestListTree: parents listed before their children, a parent that is
// not listed leaves a root, and a loop of parents prints each row once.
func TestListTree(t *testing.T) {
	rows := []ListRow{
		{Ref: "a", Parent: "c"}, {Ref: "b", Parent: "gone"}, {Ref: "c", Parent: "a"}, {Ref: "d", Parent: "b"}, {Ref: "e", Parent: "e"},
	}
	out, depth := nest(rows)
	var refs []string
	for _, r := range out {
		refs = append(refs, r.Ref)
	}
	assert.Equal(t, []string{"b", "d", "e", "a", "c"}, refs)
	assert.Equal(t, map[string]int{"a": 0, "b": 0, "c": 1, "d": 1, "e": 0}, depth)
	var b bytes.Buffer
	require.NoError(t, ListTable(&b, newPalette(), nil, ListOptions{Session: "s"}))
	assert.Empty(t, b.String(), "no rows, nothing written")
}

// A stream nobody stated an outcome for is marked like an incomplete
// recording: neither green nor red.
func TestListStreamEndedMarked(t *testing.T) {
	on := newPalette()
	on.set(true)
	var b bytes.Buffer
	rows := []ListRow{{Ref: "s/0001-stdin", Name: "0001-stdin", Status: record.StatusStreamEnded, StartedAt: listNow}}
	require.NoError(t, ListTable(&b, on, rows, ListOptions{Now: listNow, Session: "s", Width: 80}))
	assert.Contains(t, b.String(), "\x1b[35mstream ended\x1b[0m")
}
