package ui

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"sync"

	"github.com/rac-cli/rac/internal/config"
	"github.com/rac-cli/rac/internal/terminal"
)

// defaultWidth is the width of a terminal that does not say its own.
const defaultWidth = 80

// IOStreams are rac's standard streams, in the shape of gh's: readers and
// writers that commands use, and the same streams as files, when they are
// files, for terminal checks and for rac run, which hands them to the
// child so it sees the very terminal rac was given. System returns the
// process's own; Test returns buffers with a terminal-ness and width a test
// sets, so commands run in-process.
type IOStreams struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer

	// InFile, OutFile and ErrFile are In, Out and Err when those are
	// files; nil in tests.
	InFile, OutFile, ErrFile *os.File

	// fakes set by a test; nil asks the file
	inTTY, outTTY, errTTY, shared *bool
	width                         int

	outColors, errColors *Palette
	getenv               func(string) string // from SetColorMode: COLUMNS
	pager                *pager              // while StartPager's pager runs

	printerOnce sync.Once
	printer     *Printer
}

func newStreams() *IOStreams {
	return &IOStreams{outColors: newPalette(), errColors: newPalette()}
}

// System returns the process's own standard streams. It is the one place
// in rac, with main, that names os.Stdout and os.Stderr
// (.golangci.yml exempts this file from forbidigo).
func System() *IOStreams {
	s := newStreams()
	s.In, s.Out, s.Err = os.Stdin, os.Stdout, os.Stderr
	s.InFile, s.OutFile, s.ErrFile = os.Stdin, os.Stdout, os.Stderr
	return s
}

// Test returns streams over buffers: In reads in, Out and Err write to out
// and errOut. None is a terminal and colour is off until the test says
// otherwise (SetStdoutTTY, SetTerminalWidth, SetColorMode).
func Test() (s *IOStreams, in, out, errOut *bytes.Buffer) {
	in, out, errOut = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	s = newStreams()
	s.In, s.Out, s.Err = in, out, errOut
	f := false
	s.inTTY, s.outTTY, s.errTTY, s.shared = &f, &f, &f, &f
	return s, in, out, errOut
}

// IsStdinTTY, IsStdoutTTY and IsStderrTTY report whether each stream is a
// terminal.
func (s *IOStreams) IsStdinTTY() bool  { return isTTY(s.inTTY, s.InFile) }
func (s *IOStreams) IsStdoutTTY() bool { return isTTY(s.outTTY, s.OutFile) }
func (s *IOStreams) IsStderrTTY() bool { return isTTY(s.errTTY, s.ErrFile) }

// SetStdinTTY, SetStdoutTTY and SetStderrTTY make a stream pass for a
// terminal or not, whatever it is (for tests).
func (s *IOStreams) SetStdinTTY(tty bool)  { s.inTTY = &tty }
func (s *IOStreams) SetStdoutTTY(tty bool) { s.outTTY = &tty }
func (s *IOStreams) SetStderrTTY(tty bool) { s.errTTY = &tty }

func isTTY(fake *bool, f *os.File) bool {
	if fake != nil {
		return *fake
	}
	return terminal.Is(f)
}

// TerminalWidth is the number of columns of the terminal on stdout; when
// the terminal does not say, $COLUMNS (from the environment SetColorMode
// was given), else 80; and 0 when stdout is not a terminal: then nothing
// is cut to fit (a pipe gets everything, for grep and for files).
func (s *IOStreams) TerminalWidth() int {
	if s.width > 0 {
		return s.width
	}
	if !s.IsStdoutTTY() {
		return 0
	}
	if w := terminal.Width(s.OutFile); w > 0 {
		return w
	}
	if s.getenv != nil {
		if w, err := strconv.Atoi(s.getenv("COLUMNS")); err == nil && w > 0 {
			return w
		}
	}
	return defaultWidth
}

// SetTerminalWidth fixes the width TerminalWidth reports (for tests).
func (s *IOStreams) SetTerminalWidth(columns int) { s.width = columns }

// OutErrShared reports whether stdout and stderr end in one place (2>&1,
// or one terminal): then the last byte of the command's output on either
// decides whether rac's own line needs a newline first.
func (s *IOStreams) OutErrShared() bool {
	if s.shared != nil {
		return *s.shared
	}
	if s.OutFile == nil || s.ErrFile == nil {
		return false
	}
	a, errA := s.OutFile.Stat()
	b, errB := s.ErrFile.Stat()
	return errA == nil && errB == nil && os.SameFile(a, b)
}

// SetOutErrShared fixes what OutErrShared reports (for tests).
func (s *IOStreams) SetOutErrShared(shared bool) { s.shared = &shared }

// SetColorMode makes the colour decision of stdout and of stderr, each by
// ColorEnabled with its own terminal-ness, once, when the --color flag and
// the environment are known (before the first line is printed; colour is
// off until then). It is not safe to call while another goroutine prints.
// getenv is also where TerminalWidth reads $COLUMNS.
func (s *IOStreams) SetColorMode(mode config.Color, getenv func(string) string) {
	s.getenv = getenv
	s.outColors.set(ColorEnabled(mode, getenv, s.IsStdoutTTY()))
	s.errColors.set(ColorEnabled(mode, getenv, s.IsStderrTTY()))
}

// OutColors is the palette of stdout: tables, matches.
func (s *IOStreams) OutColors() *Palette { return s.outColors }

// ErrColors is the palette of stderr: rac's own lines.
func (s *IOStreams) ErrColors() *Palette { return s.errColors }

// Printer is the one printer of rac's own lines on Err; being one, it
// knows when the cursor was left in the middle of a line.
func (s *IOStreams) Printer() *Printer {
	s.printerOnce.Do(func() { s.printer = NewPrinter(s.Err, s.errColors) })
	return s.printer
}
