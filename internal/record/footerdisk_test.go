package record

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFooterDisk(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 12, 0, 0, 123456789, time.UTC)
	want := Disk{Bytes: 1234, Newest: t0, Inode: 99}
	for _, tc := range []struct {
		doc string
		ok  bool
	}{
		{`{"disk":{"bytes":1234,"newest":"2026-05-01T12:00:00.123456789Z","inode":99}}`, true},
		{" {\n \"format\": 1, \"notes\": [\"\\\"disk\\\": {\", \"}\"], \"redactions\": {\"disk\": 3},\n \"disk\": {\"inode\": 99, \"newest\": \"2026-05-01T14:00:00.123456789+02:00\", \"bytes\": 1234, \"later\": [1, {\"x\": null}]},\n \"cut\": {}\n}\n ", true},
		{`{"disk":{"bytes":1234,"newest":"2026-05-01T12:00:00.123456789Z","inode":99,"allocated":8192}}`, true},
		{`{"disk":{"bytes":1234,"newest":"2026-05-01T12:00:00.123456789Z","inode":99,"allocated":1,"allocated":2}}`, false}, // twice
		{`{"disk":{"bytes":1234,"newest":"2026-05-01T12:00:00.123456789Z","inode":99,"allocated":-1}}`, false},
		{`{"disk":{"bytes":1234,"newest":"2026-05-01T12:00:00.123456789Z"}}`, false},                       // no inode
		{`{"disk":{"bytes":1234,"newest":"2026-05-01T12:00:00.123456789Z","inode":99}`, false},             // cut short
		{`{"disk":{"bytes":1234,"newest":"2026-05-01T12:00:00.123456789Z","inode":99}} x`, false},          // trailing bytes
		{`{"disk":{"bytes":1234,"newest":"2026-05-01T12:00:00.123456789Z","inode":99},}`, false},           // trailing comma
		{`{"disk":{"bytes":1234,"newest":"2026-05-01T12:00:00.123456789Z","inode":99,"inode":98}}`, false}, // twice
		{`{"disk":{"bytes":1234,"newest":"2026-05-01T12:00:00.123456789Z","inode":99},"disk":{}}`, false},
		{`{"disk":{"bytes":-1,"newest":"2026-05-01T12:00:00.123456789Z","inode":99}}`, false},
		{`{"disk":{"bytes":1.5,"newest":"2026-05-01T12:00:00.123456789Z","inode":99}}`, false},
		{`{"disk":{"bytes":01,"newest":"2026-05-01T12:00:00.123456789Z","inode":99}}`, false},
		{`{"disk":{"bytes":99999999999999999999,"newest":"2026-05-01T12:00:00.123456789Z","inode":99}}`, false},
		{`{"disk":{"bytes":1234,"newest":"2026-05-01 12:00:00Z","inode":99}}`, false},
		{`{"disk":{"bytes":1234,"newest":null,"inode":99}}`, false},
		{`{"Disk":{"bytes":1234,"newest":"2026-05-01T12:00:00.123456789Z","inode":99}}`, false},
		{`{"notes": ["unterminated], "disk":{"bytes":1234,"newest":"2026-05-01T12:00:00.123456789Z","inode":99}}`, false},
		{`{"status": "exited"}`, false},
		{`[]`, false},
		{``, false},
	} {
		d, ok := FooterDisk([]byte(tc.doc))
		assert.Equal(t, tc.ok, ok, tc.doc)
		if ok {
			if strings.Contains(tc.doc, "allocated") {
				assert.Equal(t, int64(8192), d.Allocated, tc.doc)
			} else {
				assert.Equal(t, int64(-1), d.Allocated, "an older rac's footer: gc measures", tc.doc)
			}
			assert.Equal(t, want.Bytes, d.Bytes, tc.doc)
			assert.Equal(t, want.Inode, d.Inode, tc.doc)
			assert.True(t, want.Newest.Equal(d.Newest), tc.doc)
		}
	}
}

// FuzzFooterDisk: footerDisk never reads what encoding/json does not,
// and reads every summary rac writes.
func FuzzFooterDisk(f *testing.F) {
	f.Add([]byte(`{"format":1,"disk":{"bytes":5,"newest":"2026-05-01T12:00:00Z","inode":7}}`), int64(5), int64(0), uint64(7), "note")
	f.Add([]byte(`{"disk":{"bytes":5,"newest":"2026-05-01T12:00:00Z","inode":7},"disk":{"bytes":6}}`), int64(1<<40), int64(1e18), uint64(1<<63), `"disk": {"bytes": 1}`)
	f.Add([]byte(`{"DISK":{"bytes":5,"newest":"2026-05-01T12:00:00Z","inode":7},"disk":{"bytes":6,"newest":"2026-05-01T12:00:00Z","inode":8}}`), int64(0), int64(-1e18), uint64(0), "}\\")
	f.Fuzz(func(t *testing.T, doc []byte, size, ns int64, ino uint64, note string) {
		if d, ok := FooterDisk(doc); ok {
			var ft Footer
			if json.Unmarshal(doc, &ft) == nil {
				require.NotNil(t, ft.Disk, "%q", doc)
				assert.Equal(t, ft.Disk.Bytes, d.Bytes, "%q", doc)
				assert.Equal(t, ft.Disk.Inode, d.Inode, "%q", doc)
				if d.Allocated >= 0 {
					assert.Equal(t, ft.Disk.Allocated, d.Allocated, "%q", doc)
				} else {
					assert.Zero(t, ft.Disk.Allocated, "%q", doc)
				}
				assert.True(t, ft.Disk.Newest.Equal(d.Newest), "%q", doc)
			}
		}
		// what the recorder writes, with anything in its notes and
		// redaction counts, is read back
		code := 1
		ft := Footer{
			Format: 1, Status: StatusExited, ExitCode: &code, EndedAt: time.Unix(0, ns),
			Notes: []string{note}, Redactions: map[string]int{note: 1, "disk": 2},
			Disk: &Disk{Bytes: max(size, 0), Newest: time.Unix(0, ns).UTC(), Inode: ino, Allocated: max(size, 0) / 2},
		}
		own, err := encodeFooter(&ft)
		if err != nil {
			return // a time encoding/json cannot write either
		}
		for _, indent := range []string{"", "  "} {
			b, err := json.MarshalIndent(ft, "", indent)
			require.NoError(t, err)
			for _, doc := range [][]byte{b, own} {
				d, ok := FooterDisk(doc)
				require.True(t, ok, "%s", doc)
				assert.Equal(t, *ft.Disk, d)
			}
		}
	})
}

func BenchmarkFooterDisk(b *testing.B) {
	code := 0
	ft := Footer{
		Format: 1, Status: StatusExited, ExitCode: &code, EndedAt: time.Now().UTC(),
		Received:   map[string]Counts{Stdout: {Bytes: 1234, Lines: 12}, Stderr: {}},
		Stored:     map[string]Counts{Stdout: {Bytes: 1234, Lines: 12}, Stderr: {}},
		Redactions: map[string]int{"github-token": 1},
		Disk:       &Disk{Bytes: 4567, Newest: time.Now().UTC(), Inode: 123456},
	}
	doc, err := json.MarshalIndent(ft, "", "  ")
	require.NoError(b, err)
	b.Run("scan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := FooterDisk(doc); !ok {
				b.Fatal("no summary")
			}
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v struct {
				Disk *Disk `json:"disk"`
			}
			if json.Unmarshal(doc, &v) != nil || v.Disk == nil {
				b.Fatal("no summary")
			}
		}
	})
}
