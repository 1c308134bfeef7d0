package store

import (
	"io/fs"
	"syscall"
)

// Bytes on disk. Every size limit of the store (gc's session and store
// limits, the trim at the end of each recording) and rac out list's DISK
// count what a file or folder takes on disk: the blocks the file system
// allocated to it, as du counts them (st_blocks, in 512-byte units on
// every Unix), not its apparent size. So a small file costs its whole
// block, a compressed recording what its frames take, a file with blocks
// allocated past its end (fallocate) all of them, and a sparse file only
// what it really holds: a hole costs nothing, so a file truncated out to
// a terabyte neither counts a terabyte (gc would remove every recording
// to make room for it) nor less than it holds (its written blocks count).
//
// What the file system reports is taken as it is: a file system that
// compresses (btrfs reports the uncompressed extents, ZFS the compressed
// ones), or counts written data late (ZFS, until its transaction group is
// committed, a few seconds), counts as du would show it then.

// blockUnit is the unit of st_blocks on Linux, macOS and the BSDs.
const blockUnit = 512

// FallbackBlock is the block a size is rounded up to where the system
// does not report a file's blocks, and for a file gc is about to write
// (a projection, corrected by a stat once it is written).
const FallbackBlock = 4096

// OnDisk is what a file of apparent size takes on disk given its
// allocated blocks (st_blocks); blocks < 0 means the system did not report
// them, and the size rounded up to a FallbackBlock stands in.
func OnDisk(size, blocks int64) int64 {
	if blocks < 0 {
		return RoundBlock(size)
	}
	return blocks * blockUnit
}

// RoundBlock is size rounded up to a whole FallbackBlock.
func RoundBlock(size int64) int64 {
	if size <= 0 {
		return 0
	}
	return (size + FallbackBlock - 1) / FallbackBlock * FallbackBlock
}

// FileOnDisk is OnDisk of what a stat (os.Lstat, a directory listing's
// Info) found.
func FileOnDisk(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return OnDisk(fi.Size(), st.Blocks)
	}
	return OnDisk(fi.Size(), -1)
}
