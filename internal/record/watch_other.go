//go:build !linux

package record

import (
	"errors"
	"os"
	"time"
)

var errNoWatch = errors.New("no directory watch")

type dirWatch struct{}

func newDirWatch(*os.Root) (*dirWatch, error) { return nil, errNoWatch }
func (w *dirWatch) wait(time.Duration) error  { return nil }
func (w *dirWatch) close()                    {}
