package record

// tailStep bounds the chunks a merged tail walks back over: a chunk holds
// up to 1 MiB of one stream (consecutive writes extend it), and a tail
// that found its lines in the last 64 KiB of one need not read the rest
// of it, nor decode the frames of a compressed stream that hold it.
const tailStep = 64 << 10

// splitChunks cuts chunks longer than step into consecutive pieces of at
// most step bytes, in order, each with its chunk's time: the walk yields
// the same lines from them, since the pieces of a chunk follow each other
// in the same stream.
func splitChunks(chunks []Chunk, step int64) []Chunk {
	n := 0
	for _, c := range chunks {
		n += int((c.Len + step - 1) / step)
	}
	if n == len(chunks) {
		return chunks
	}
	out := make([]Chunk, 0, n)
	for _, c := range chunks {
		for off := int64(0); off < c.Len; off += step {
			out = append(out, Chunk{Stream: c.Stream, Off: c.Off + off, Len: min(step, c.Len-off), Time: c.Time})
		}
	}
	return out
}
