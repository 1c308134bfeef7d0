package faults

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/rac-cli/rac/internal/redact/redacttest"
	"github.com/stretchr/testify/require"
)

// TestSecretCorpus runs every case of the secret corpus through rac run in
// pipe and pty mode (where lines end in CRLF), written by the command in
// two writes split at random byte boundaries, then searches every file of
// the store, as grep -rF would, for each secret's central 12 bytes: raw,
// JSON-escaped or percent-encoded, none may be there.
func TestSecretCorpus(t *testing.T) {
	sc := newScenario(t, "secret corpus, pipe and pty, split writes", true)
	cases := redacttest.LoadCorpus(t, filepath.Join("..", "..", "testdata", "redact", "secrets.txt"))
	require.NotEmpty(t, cases)
	splits := iterations(3, 1)
	for _, mode := range []string{"pipe", "pty"} {
		st := newStore(t)
		dir := filepath.Join(st.dir, "in")
		require.NoError(t, os.MkdirAll(dir, 0o700))
		for i, c := range cases {
			in := filepath.Join(dir, strconv.Itoa(i))
			require.NoError(t, os.WriteFile(in, []byte(c.In), 0o600))
			for range splits {
				sc.iter()
				k := sc.rng.IntN(len(c.In) + 1)
				run := *st
				run.env = append(append([]string(nil), st.env...), c.Env...)
				// a pause between the writes, so the split reaches rac as two reads
				r := run.rac(time.Minute, "run", "-q", "--mode", mode, "--", "sh", "-c",
					`head -c "$2" "$1"; sleep 0.01; tail -c +"$(($2 + 1))" "$1"`, "sh", in, strconv.Itoa(k))
				if r.code != 0 {
					sc.fail("%s (%s): rac run: exit %d: %s", c.Name, mode, r.code, r.stderr)
				}
			}
		}
		store := readTree(t, st.home)
		for _, c := range cases {
			for _, s := range c.Secrets {
				for _, f := range redacttest.SurvivalForms(s) {
					if at := bytes.Index(store, []byte(f)); at >= 0 {
						sc.fail("%s (%s): secret material %q is on disk as %q: %q", c.Name, mode, s, f, store[max(0, at-60):min(len(store), at+60)])
					}
				}
			}
		}
		t.Logf("%s mode: %d cases, %d bytes of store searched", mode, len(cases), len(store))
	}
}

// readTree is every regular file under dir, one after another, with the
// file names (a secret in a name is on disk too).
func readTree(t *testing.T, dir string) []byte {
	var all []byte
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		all = fmt.Appendf(all, "%s\n", p)
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			all = append(all, b...)
		}
		return nil
	}))
	return all
}
