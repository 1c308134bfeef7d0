package session

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// HeldFile is a file a harness keeps open while a conversation is its
// current one, whose name carries the conversation id: a harness that
// gives the servers it starts no id variable still says, through its open
// files, which conversation it runs. The table is data.
type HeldFile struct {
	Label  string // session label, as the harness's id variable's
	Dir    string // the name of the folder the file is in
	Suffix string // what the file's name ends with after the id
}

// DefaultHeldFiles are the held files of the measured harnesses. Codex
// 0.169.0 holds $CODEX_HOME/thread-writer-locks/THREAD.lock open for its
// thread (measured from an MCP server's parent, the codex process), the
// same THREAD that CODEX_THREAD_ID gives its shell calls, so a server and
// a shell call of one conversation derive one session name.
var DefaultHeldFiles = []HeldFile{
	{Label: "codex", Dir: "thread-writer-locks", Suffix: ".lock"},
}

// HeldConversation is the session of the one conversation process pid
// holds a held file of open. ok is false when it holds none, or more than
// one conversation's (which one a call belongs to cannot be told: no
// guess); why says what was seen either way.
func HeldConversation(pid int) (name string, ok bool, why string) {
	links, err := openFiles(pid)
	if err != nil {
		return "", false, "cannot list the open files of pid " + strconv.Itoa(pid) + ": " + err.Error()
	}
	return heldConversation(links, DefaultHeldFiles)
}

// heldConversation picks the one conversation among the paths of a
// process's open files.
func heldConversation(paths []string, table []HeldFile) (string, bool, string) {
	var names []string
	for _, p := range paths {
		base := filepath.Base(p)
		for _, h := range table {
			id, cut := strings.CutSuffix(base, h.Suffix)
			if !cut || filepath.Base(filepath.Dir(p)) != h.Dir || !isUUID(id) {
				continue
			}
			n := DerivedName(h.Label, id)
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	switch len(names) {
	case 0:
		return "", false, "it holds no conversation's file open"
	case 1:
		return names[0], true, "it holds the conversation's file open"
	default:
		return "", false, "it holds " + strconv.Itoa(len(names)) + " conversations' files open: " + strings.Join(names, ", ")
	}
}
