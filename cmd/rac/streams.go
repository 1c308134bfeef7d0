package main

import "os"

// Streams are rac's standard streams, injected so tests and the command
// tree never touch os.Stdout directly.
type Streams struct {
	In  *os.File
	Out *os.File
	Err *os.File
}

func systemStreams() Streams { return Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr} }
