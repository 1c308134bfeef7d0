// Command rac runs a command exactly as without rac while recording its
// output into a session-scoped store, and reads recordings back.
package main

import "os"

func main() { os.Exit(Main(os.Args[1:], systemStreams())) }
