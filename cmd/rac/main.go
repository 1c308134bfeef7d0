// Command rac runs a command exactly as without rac while recording its
// output into a session-scoped store, and reads recordings back.
package main

import (
	"os"

	"github.com/rac-cli/rac/internal/ui"
)

func main() { os.Exit(Main(os.Args[1:], ui.System())) }
