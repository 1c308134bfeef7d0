package ui

import (
	"io"
	"strings"
	"unicode/utf8"

	"github.com/rac-cli/rac/internal/termtext"
)

// gap is the space between two columns.
const gap = "  "

// minCut is the narrowest a column that can be cut is made.
const minCut = 8

// Column describes one column of a Table.
type Column struct {
	Header string // the header row shows when any column has one
	Right  bool   // right-aligned, for numbers and sizes
	Cut    bool   // cut, ending in "…", so rows fit the width (the command)
}

// Cell is one field of a row: its text and, optionally, a style from the
// palette of the stream the table is written to.
type Cell struct {
	Text  string
	Style Style
}

// Plain is a cell without colour.
func Plain(text string) Cell { return Cell{Text: text} }

// Table writes aligned columns for people:
//
//	REF           STATUS      SIZE  COMMAND
//	s/0001-make   exit 2   2.9 KiB  make test
//	s/0002-sleep  running      0 B  sleep 100
//
// Columns are two spaces apart; a Right column is padded on the left; a
// Cut column is shortened, ending in "…", until a row fits the width; the
// last column gets no trailing padding. Every cell passes through
// termtext.Escape, and widths are measured on the escaped text without its
// colour, so styles never break the alignment. A width counts runes, which
// is a terminal's columns for all but wide (East Asian) and combining
// characters.
type Table struct {
	HeaderStyle Style // the header row's style (e.g. Palette.Bold)

	w     io.Writer
	width int
	cols  []Column
	rows  [][]Cell
}

// NewTable writes to w, fitting rows in width columns (0: never cut;
// IOStreams.TerminalWidth is 0 when stdout is not a terminal).
func NewTable(w io.Writer, width int, cols ...Column) *Table {
	return &Table{w: w, width: width, cols: cols}
}

// Row adds a row; missing cells are empty, and cells beyond the columns
// get plain columns of their own.
func (t *Table) Row(cells ...Cell) {
	row := make([]Cell, len(cells))
	for i, c := range cells {
		row[i] = Cell{Text: termtext.Escape(c.Text), Style: c.Style}
	}
	for len(t.cols) < len(row) {
		t.cols = append(t.cols, Column{})
	}
	t.rows = append(t.rows, row)
}

// Render writes the header (if any) and the rows, in one write.
func (t *Table) Render() error {
	rows := t.rows
	for _, c := range t.cols {
		if c.Header != "" {
			header := make([]Cell, len(t.cols))
			for i, c := range t.cols {
				header[i] = Cell{Text: termtext.Escape(c.Header), Style: t.HeaderStyle}
			}
			rows = append([][]Cell{header}, rows...)
			break
		}
	}
	if len(rows) == 0 {
		return nil
	}
	widths := t.widths(rows)
	var b strings.Builder
	for _, row := range rows {
		t.writeRow(&b, row, widths)
	}
	_, err := io.WriteString(t.w, b.String())
	return err
}

// widths is each column's width: its widest cell, then Cut columns
// narrowed, the last first, until a row fits t.width.
func (t *Table) widths(rows [][]Cell) []int {
	widths := make([]int, len(t.cols))
	for _, row := range rows {
		for i, c := range row {
			widths[i] = max(widths[i], runes(c.Text))
		}
	}
	if t.width <= 0 {
		return widths
	}
	total := len(gap) * (len(widths) - 1)
	for _, w := range widths {
		total += w
	}
	for i := len(t.cols) - 1; i >= 0 && total > t.width; i-- {
		if !t.cols[i].Cut {
			continue
		}
		narrow := max(widths[i]-(total-t.width), min(widths[i], minCut))
		total -= widths[i] - narrow
		widths[i] = narrow
	}
	return widths
}

func (t *Table) writeRow(b *strings.Builder, row []Cell, widths []int) {
	var line strings.Builder
	for i, w := range widths {
		var c Cell
		if i < len(row) {
			c = row[i]
		}
		text := cut(c.Text, w)
		pad := strings.Repeat(" ", w-runes(text))
		if i > 0 {
			line.WriteString(gap)
		}
		if t.cols[i].Right {
			line.WriteString(pad)
		}
		line.WriteString(c.Style.Sprint(text))
		if !t.cols[i].Right && i < len(widths)-1 {
			line.WriteString(pad)
		}
	}
	// empty last cells leave padding behind
	b.WriteString(strings.TrimRight(line.String(), " "))
	b.WriteByte('\n')
}

func runes(s string) int { return utf8.RuneCountInString(s) }

// cut shortens s to w runes, the last one "…".
func cut(s string, w int) string {
	if runes(s) <= w {
		return s
	}
	if w <= 0 {
		return ""
	}
	i, n := 0, 0
	for n < w-1 {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
	}
	return s[:i] + "…"
}
