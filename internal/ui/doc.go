// Package ui owns everything a person reads from rac, the way
// cmd/age/tui.go does for age: the standard streams (IOStreams) and whether
// each is a terminal, the colour decision for each stream, the printer of
// rac's own "rac:" lines on stderr, and the renderings of values: quoted
// commands, sizes, durations, ages, outcomes and tables; what rac out list,
// grep and explain show people (ListTable, GrepHit, Explain); the pager
// rac out read writes through on a terminal (IOStreams.StartPager); and
// the hint under an error (Hint). A command's long help and examples are
// not here: they sit beside its flags in cmd/rac's cmd_<verb>.go.
//
// It must never decide policy (what to redact, which store, when gc runs:
// internal/app does), never read the store, and never print a string that
// came from a recording or the environment without escaping it (every
// message and table cell passes through termtext.Escape). Colour is decided
// once per stream and applied by enabling or disabling each of its own
// color objects; it never sets fatih/color's global color.NoColor, so two
// streams (or two tests) can decide differently. With colour off, output
// holds no escape byte at all.
package ui
