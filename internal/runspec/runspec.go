// Package runspec holds the words of what rac run is asked to do: Mode
// (run.mode, --mode: how the command is connected) and Announce
// (run.announce, --announce: which of its own rac: lines it prints).
// config parses the settings into these types and checks each value once,
// there, against ModeChoices and AnnounceChoices; capture, app and the
// front ends take them as they are. It must never print, read settings or
// decide anything: auto is resolved by capture (Mode) and app (Announce).
package runspec

// Mode is how rac run connects the command to rac's streams.
type Mode string

// The modes. The zero Mode is pipe mode.
const (
	// ModeAuto asks capture.Choose to pick one of the others.
	ModeAuto Mode = "auto"
	// ModePipe gives the command pipes for stdout and stderr: the
	// recording has both streams, apart. What agents get.
	ModePipe Mode = "pipe"
	// ModePTY gives the command a pseudo-terminal of the size of rac's
	// terminal in place of each of its standard streams that is that
	// terminal: it sees a terminal, as without rac, and the recording
	// holds one combined stream, full-screen spans left out.
	ModePTY Mode = "pty"
	// ModePassthrough hands the command rac's own streams untouched:
	// nothing is copied and the recording holds metadata only. For
	// programs that are all terminal (editors, pagers, REPLs).
	ModePassthrough Mode = "passthrough"
)

// ModeChoices are the values run.mode takes, in the order help lists
// them.
func ModeChoices() []string {
	return words(ModeAuto, ModePipe, ModePTY, ModePassthrough)
}

// Announce is which of rac run's own rac: lines it prints.
type Announce string

// The announce values.
const (
	AnnounceStart Announce = "start"
	AnnounceEnd   Announce = "end"
	AnnounceBoth  Announce = "both"
	// AnnounceFailed prints the reference only when the command failed
	// (or its recording was cut): a successful command prints exactly
	// what it prints without rac.
	AnnounceFailed Announce = "failed"
	AnnounceNone   Announce = "none"
	// AnnounceAuto is both for agents and where no terminal shows the
	// run, else failed (app.ResolveAnnounce).
	AnnounceAuto Announce = "auto"
)

// AnnounceChoices are the values run.announce takes, in the order help
// lists them.
func AnnounceChoices() []string {
	return words(AnnounceStart, AnnounceEnd, AnnounceBoth, AnnounceFailed, AnnounceNone, AnnounceAuto)
}

// AgentView is run.agent_view: whether rac run shapes a long output for
// the cut of the agent harness that captures it.
type AgentView string

// The agent view values.
const (
	// AgentViewAuto is on when an agent harness is detected and rac's
	// stdout is what the harness captures (app decides), else off.
	AgentViewAuto AgentView = "auto"
	AgentViewOn   AgentView = "on"
	AgentViewOff  AgentView = "off"
)

// AgentViewChoices are the values run.agent_view takes.
func AgentViewChoices() []string { return words(AgentViewAuto, AgentViewOn, AgentViewOff) }

func words[T ~string](vs ...T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}
