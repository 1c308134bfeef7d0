package faults

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/rac-cli/rac/internal/redact/redacttest"
	"github.com/stretchr/testify/require"
)

// TestSecretCorpus runs every case of the secret corpus through rac run in
// pipe and pty mode (where lines end in CRLF), and through rac record (the
// same writes piped into it), written by the command in two writes split
// at random byte boundaries, then searches every file of
// the store, as grep -rF would, for each secret's central 12 bytes: raw,
// JSON-escaped or percent-encoded, none may be there.
func TestSecretCorpus(t *testing.T) {
	sc := newScenario(t, "secret corpus, pipe, pty and rac record, split writes", true)
	cases := redacttest.LoadCorpus(t, filepath.Join("..", "..", "testdata", "redact", "secrets.txt"))
	require.NotEmpty(t, cases)
	splits := iterations(3, 1)
	for _, mode := range []string{"pipe", "pty", "record"} {
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
				split := `head -c "$2" "$1"; sleep 0.01; tail -c +"$(($2 + 1))" "$1"`
				args := []string{"run", "-q", "--mode", mode, "--", "sh", "-c", split, "sh", in, strconv.Itoa(k)}
				if mode == "record" {
					// the same writes piped into rac record (its stdout is
					// the stream itself: discarded)
					if code, err := run.shell(time.Minute, `sh -c "$3" sh "$1" "$2" | "$4" record --no-tee --name corpus`,
						in, strconv.Itoa(k), split, racBin); code != 0 || err != nil {
						sc.fail("%s (record): exit %d, %v", c.Name, code, err)
					}
					continue
				}
				r := run.rac(time.Minute, args...)
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

// shell runs a sh -c script with args in the store's environment and
// folder, in a process group of its own (killed at the limit).
func (s *racStore) shell(limit time.Duration, script string, args ...string) (int, error) {
	c := exec.Command("sh", append([]string{"-c", script, "sh"}, args...)...)
	c.Env, c.Dir = s.env, s.dir
	return startWait(limit, c)
}
