package gc

import (
	"time"

	"golang.org/x/sys/unix"
)

func mtime(st *unix.Stat_t) time.Time { return time.Unix(st.Mtim.Unix()) }
