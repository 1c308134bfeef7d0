package ui

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rac-cli/rac/internal/gc"
)

// A pass that removed nothing because of its errors says the errors, not
// "removed 0" followed by a warning; one that removed something says so
// and warns of the rest.
func TestGCSummary(t *testing.T) {
	var b strings.Builder
	r := gc.NewResult(false)
	r.Errors = []string{"the store /s cannot be written (read-only file system): nothing in it was removed"}
	GCSummary(NewPrinter(&b, nil), r)
	assert.Equal(t, "rac: gc: the store /s cannot be written (read-only file system): nothing in it was removed\n", b.String())

	b.Reset()
	r.RemovedRecordings, r.FreedBytes = 2, 2048
	GCSummary(NewPrinter(&b, nil), r)
	assert.Equal(t, "rac: gc removed 0 sessions, 2 recordings, 2 KiB\n"+
		"rac: warning: gc: the store /s cannot be written (read-only file system): nothing in it was removed\n", b.String())
}
