//go:build !linux

package capture

import "os"

func growPipe(*os.File) {}

// fionread asks how many bytes a pipe holds: FIONREAD on macOS and the
// BSDs (_IOR('f', 127, int)).
const fionread = 0x4004667f
