package ui

import (
	"encoding/json"
	"io"
)

// JSON writes v as indented JSON and a newline: a --json answer that a
// person may read as well as a program.
func JSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
