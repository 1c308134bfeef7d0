// Package gctest builds synthetic stores for GC tests and benchmarks: never
// imported by production code.
package gctest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/store"
)

// BenchStore builds a synthetic store at dir (created when missing) for
// timing GC: session folders bench-0000... with perSession finished
// recordings each, laid out as rac writes them (meta.json, stdout, stderr,
// chunks, line indexes, lock, and footer.json with the folder's summary,
// measured by record.MeasureDir) with a few hundred bytes of output.
// Session i is dated from one hour to six days back, spread evenly, as a
// store in use is: with the default limits a pass removes nothing and
// measures the scan (the first pass reads each footer's summary, later
// ones use gc.cache); a lower gc.max_age or size limit makes it remove.
func BenchStore(dir string, sessions, perSession int) error {
	st, err := store.CreateStore(dir)
	if err != nil {
		return err
	}
	if err := st.Close(); err != nil {
		return err
	}
	base := filepath.Join(dir, store.SessionsDir)
	if err := os.MkdirAll(base, 0o700); err != nil {
		return err
	}
	out := []byte("bench output line 1\nbench output line 2\nbench output line 3\n")
	now := time.Now().UTC()
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		errs  []error
		jobs  = make(chan int)
		write = func(p string, b []byte) error { return os.WriteFile(p, b, 0o600) }
	)
	worker := func() {
		for i := range jobs {
			age := time.Hour + time.Duration(i)*(6*24*time.Hour-time.Hour)/time.Duration(max(sessions, 1))
			if err := benchSession(base, i, perSession, out, now.Add(-age), write); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		}
	}
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Go(worker)
	}
	for i := range sessions {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return errors.Join(errs...)
}

func benchSession(base string, i, n int, out []byte, now time.Time, write func(string, []byte) error) error {
	name := fmt.Sprintf("bench-%04d", i)
	sdir := filepath.Join(base, name)
	if err := os.Mkdir(sdir, 0o700); err != nil {
		return err
	}
	for f, b := range map[string][]byte{
		store.SeqFile:         []byte(strconv.Itoa(n) + "\n"),
		store.InfoFile:        []byte(`{"rule":"flag","source":"--session"}` + "\n"),
		store.SessionLockFile: nil,
	} {
		if err := write(filepath.Join(sdir, f), b); err != nil {
			return err
		}
	}
	code := 0
	for seq := int64(1); seq <= int64(n); seq++ {
		argv := []string{"echo", "bench", strconv.FormatInt(seq, 10)}
		rname := record.Name(seq, argv)
		rdir := filepath.Join(sdir, rname)
		if err := os.Mkdir(rdir, 0o700); err != nil {
			return err
		}
		meta, _ := json.MarshalIndent(record.Meta{
			Format: record.FormatVersion, Session: name, Name: rname, Seq: seq, Argv: argv, Cwd: "/tmp",
			StartedAt: now, RacVersion: "bench", Mode: record.ModePipes, Streams: []string{record.Stdout, record.Stderr}, PID: 1,
		}, "", "  ")
		for _, f := range []struct {
			name string
			data []byte
		}{
			{record.MetaFile, append(meta, '\n')},
			{record.LockFile, nil},
			{record.ChunksFile, []byte("RACCHK1\n")},
			{record.Stdout, out},
			{record.Stderr, nil},
			{"lines-" + record.Stdout, []byte("RACLIN1\n")},
			{"lines-" + record.Stderr, []byte("RACLIN1\n")},
		} {
			if err := writeAt(filepath.Join(rdir, f.name), f.data, now, write); err != nil {
				return err
			}
		}
		// the footer says what the folder holds, as record.Writer.Finish
		// measures it
		disk, err := measure(rdir)
		if err != nil {
			return err
		}
		footer, _ := json.MarshalIndent(record.Footer{
			Format: record.FormatVersion, Status: record.StatusExited, ExitCode: &code, EndedAt: now,
			Received: map[string]record.Counts{record.Stdout: {Bytes: int64(len(out)), Lines: 3}, record.Stderr: {}},
			Stored:   map[string]record.Counts{record.Stdout: {Bytes: int64(len(out)), Lines: 3}, record.Stderr: {}},
			Disk:     disk,
		}, "", "  ")
		if err := writeAt(filepath.Join(rdir, record.FooterFile), append(footer, '\n'), now, write); err != nil {
			return err
		}
		if err := os.Chtimes(rdir, now, now); err != nil {
			return err
		}
	}
	return nil
}

// writeAt writes a file dated t.
func writeAt(p string, b []byte, t time.Time, write func(string, []byte) error) error {
	if err := write(p, b); err != nil {
		return err
	}
	return os.Chtimes(p, t, t)
}

func measure(dir string) (*record.Disk, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return record.MeasureDir(r)
}
