package main

import (
	"bufio"
	"encoding/hex"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

var gitLogMB = flag.Int("gitlog-size", 200, "MiB of git-log-shaped text for throughput/gitlog (at most -size)")

// gitLogStats says how much of a generated log the Author lines are, so a
// figure can be compared with a log of another shape.
type gitLogStats struct {
	lines, nonBlank, author, bytes int64
}

func (s gitLogStats) String() string {
	return fmt.Sprintf("%d lines, %d start with Author (%.1f%% of all lines, %.1f%% of non-blank ones, one per %d bytes)",
		s.lines, s.author, 100*float64(s.author)/float64(s.lines), 100*float64(s.author)/float64(s.nonBlank), s.bytes/max(s.author, 1))
}

// gitLogFile writes size bytes of `git log` output in its default format
// (commit, Author, Date, a blank line, an indented subject, a blank line),
// the same for a given size whatever word stands for Author, so that two
// files differ only in that word. word must be as long as "Author" for the
// two to line up byte for byte.
func (b *bench) gitLogFile(name string, size int64, word string) (string, gitLogStats) {
	if len(word) != len("Author") {
		check(fmt.Errorf("gitLogFile: %q is not as long as Author", word))
	}
	p := filepath.Join(b.work, name)
	f, err := os.Create(p)
	check(err)
	w := bufio.NewWriterSize(f, 1<<20)
	rng := rand.New(rand.NewPCG(3, 4))
	first := strings.Fields("Ada Alan Barbara Dennis Edsger Frances Grace Guido Ken Linus Margaret Niklaus Rob Radia Robert Sophie Tim Yukihiro")
	last := strings.Fields("Lovelace Turing Liskov Ritchie Dijkstra Allen Hopper Rossum Thompson Torvalds Hamilton Wirth Pike Perlman Griesemer Wilson Berners-Lee Matsumoto")
	words := strings.Fields("fix add remove update refactor handle error when the a of in for to with record session store read write line byte file path test flag timeout signal lock cache footer index")
	pkgs := strings.Fields("record store session redact capture search resolve explain gc termtext app ui config bench docs")
	when := time.Date(2026, 11, 30, 18, 4, 5, 0, time.FixedZone("", 3600))
	var st gitLogStats
	var n int64
	var hash [20]byte
	emit := func(line string) bool {
		st.lines++
		if line != "\n" {
			st.nonBlank++
		}
		if strings.HasPrefix(line, word) {
			st.author++
		}
		if n+int64(len(line)) > size {
			line = line[:size-n]
		}
		m, _ := w.WriteString(line)
		n += int64(m)
		return n < size
	}
	for {
		for i := range hash {
			hash[i] = byte(rng.UintN(256))
		}
		fn, ln := first[rng.IntN(len(first))], last[rng.IntN(len(last))]
		var subj strings.Builder
		subj.WriteString(pkgs[rng.IntN(len(pkgs))])
		subj.WriteString(":")
		for k := 0; k < 3+rng.IntN(7); k++ {
			subj.WriteString(" " + words[rng.IntN(len(words))])
		}
		when = when.Add(-time.Duration(60+rng.IntN(7200)) * time.Second)
		if !emit("commit "+hex.EncodeToString(hash[:])+"\n") ||
			!emit(fmt.Sprintf("%s: %s %s <%s.%s@example.org>\n", word, fn, ln, strings.ToLower(fn), strings.ToLower(ln))) ||
			!emit("Date:   "+when.Format("Mon Jan 2 15:04:05 2006 -0700")+"\n") ||
			!emit("\n") ||
			!emit("    "+subj.String()+"\n") ||
			!emit("\n") {
			break
		}
	}
	check(w.Flush())
	check(f.Close())
	st.bytes = n
	return p, st
}
