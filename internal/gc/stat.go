package gc

import (
	"time"

	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/store"
)

func mtime(st *unix.Stat_t) time.Time { return time.Unix(st.Mtim.Unix()) }

// statDisk is what the file of st takes on disk (store.OnDisk).
func statDisk(st *unix.Stat_t) int64 { return store.OnDisk(st.Size, st.Blocks) }
