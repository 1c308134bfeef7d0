package ui

import (
	"encoding/json"
	"io"

	"github.com/rac-cli/rac/internal/termtext"
)

// JSON writes v as indented JSON and a newline: a --json answer that a
// person may read as well as a program (C1 controls escaped, as a
// terminal would act on them).
func JSON(w io.Writer, v any) error {
	enc := json.NewEncoder(termtext.JSONWriter(w))
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// JSONLine writes v as JSON on one line and a newline (rac run --json).
func JSONLine(w io.Writer, v any) error {
	return json.NewEncoder(termtext.JSONWriter(w)).Encode(v)
}
