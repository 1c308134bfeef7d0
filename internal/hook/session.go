package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rac-cli/rac/internal/session"
	"github.com/rac-cli/rac/internal/store"
)

// maxHookInput bounds what a hook reads from stdin: Claude Code sends a
// few hundred bytes.
const maxHookInput = 1 << 20

// maxEnvFile bounds how much of CLAUDE_ENV_FILE is read to see whether
// the block is already there.
const maxEnvFile = 1 << 20

// ClaudeHook is one run of rac hook claude-session, Claude Code's
// SessionStart hook.
type ClaudeHook struct {
	Stdin  io.Reader
	Getenv func(string) string
	// PPID is the hook's parent: the harness, or the shell Claude Code
	// runs the hook command with (sh -c).
	PPID int
	// ProcStart reads a process's start time (store.ProcStart when nil).
	ProcStart func(pid int) (uint64, error)
	// Parent reads a process's parent and the names it goes by (command
	// name, executable, argv[0]); ProcParent when nil.
	Parent func(pid int) (ppid int, names []string, err error)
	Now    func() time.Time
	// Agent is the code rac shell-init bash --agent prints.
	Agent string
	// Note records the conversation under the harness pid
	// (Store.NoteHarness in the store rac run writes to).
	Note func(store.HarnessNote) error
}

// ClaudeSessionHook reads the SessionStart JSON on stdin and makes every
// later Bash call of the conversation record the model's commands: it
// appends the --agent functions and RAC_SESSION=claude-ID (the name rac
// run derives from CLAUDE_CODE_SESSION_ID) to CLAUDE_ENV_FILE, which
// Claude Code sources before each call, and notes the session under the
// harness pid. It prints nothing: a SessionStart hook's stdout becomes
// the model's context. The error says what went wrong, for one line on
// stderr; the hook still exits 0, since a hook must never stop the
// agent.
func ClaudeSessionHook(h ClaudeHook) error {
	var in struct {
		SessionID string `json:"session_id"`
		Event     string `json:"hook_event_name"`
	}
	b, err := io.ReadAll(io.LimitReader(h.Stdin, maxHookInput+1))
	switch {
	case err != nil:
		return fmt.Errorf("hook claude-session: read stdin: %w", err)
	case len(b) > maxHookInput:
		return fmt.Errorf("hook claude-session: more than %d bytes on stdin; nothing done", maxHookInput)
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return fmt.Errorf("hook claude-session: stdin is not the SessionStart JSON (%v); nothing done", err)
	}
	if in.Event != "" && in.Event != "SessionStart" {
		return fmt.Errorf("hook claude-session: called for %q, not SessionStart; nothing done", in.Event)
	}
	id := strings.TrimSpace(in.SessionID)
	if id == "" {
		return errors.New("hook claude-session: no session_id in the SessionStart JSON; nothing done")
	}
	name := session.DerivedName("claude", id)
	var errs []error
	if f := h.Getenv("CLAUDE_ENV_FILE"); f == "" {
		errs = append(errs, errors.New("CLAUDE_ENV_FILE is not set, so the model's commands are not wrapped"))
	} else if err := appendBlock(f, envBlock(name, h.Agent)); err != nil {
		errs = append(errs, fmt.Errorf("CLAUDE_ENV_FILE: %w", err))
	}
	if err := h.note(name); err != nil {
		errs = append(errs, fmt.Errorf("note the conversation: %w", err))
	}
	if len(errs) == 0 {
		return nil
	}
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = strings.ReplaceAll(e.Error(), "\n", " ")
	}
	return errors.New("hook claude-session: " + strings.Join(msgs, "; "))
}

// envBlock is what the hook appends: one block, recognisable by its first
// line, so a second SessionStart of the same conversation (resume,
// compact) adds nothing.
func envBlock(name, agent string) string {
	return "# rac hook claude-session " + name + "\nexport RAC_SESSION=" + name + "\n" + agent
}

// appendBlock appends block to the file at path unless it already holds
// it. The file must be a regular file; a symlink is refused (Claude Code
// makes the file itself, in its own folder).
func appendBlock(path, block string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
	if err != nil {
		return err
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		_ = f.Close()
		if err == nil {
			err = fmt.Errorf("%s is not a regular file", path)
		}
		return err
	}
	have, err := io.ReadAll(io.LimitReader(f, maxEnvFile))
	if err == nil && !strings.Contains(string(have), block) {
		if len(have) > 0 && have[len(have)-1] != '\n' {
			block = "\n" + block
		}
		_, err = f.WriteString(block)
	}
	return errors.Join(err, f.Close())
}

// note records the session under the harness pid: the pid of the process
// that will start rac mcp, Claude Code itself (harnessPID).
func (h ClaudeHook) note(name string) error {
	if h.Note == nil {
		return nil
	}
	procStart := h.ProcStart
	if procStart == nil {
		procStart = store.ProcStart
	}
	pid := h.harnessPID()
	start, err := procStart(pid)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("harness pid %d is not running", pid)
	}
	if err != nil {
		start = 0 // no /proc: the pid alone
	}
	now := time.Now
	if h.Now != nil {
		now = h.Now
	}
	return h.Note(store.HarnessNote{PID: pid, Start: start, Harness: "claude", Session: name, At: now().UTC()})
}

// maxWalk bounds the walk up from the hook to Claude Code: a shell or
// two, a wrapper script, never a deep tree.
const maxWalk = 8

// harnessPID is Claude Code's pid: CLAUDE_PID, which Claude Code sets for
// its hooks and tools, when it is a pid; else the nearest ancestor named
// claude, since Claude Code runs a hook command through sh -c, so the
// hook's parent may be that shell and not the harness that starts rac
// mcp; else the hook's parent.
func (h ClaudeHook) harnessPID() int {
	if v, err := strconv.Atoi(h.Getenv("CLAUDE_PID")); err == nil && v > 0 {
		return v
	}
	parent := h.Parent
	if parent == nil {
		parent = ProcParent
	}
	for pid, i := h.PPID, 0; pid > 1 && i < maxWalk; i++ {
		ppid, names, err := parent(pid)
		if err != nil {
			break
		}
		if slices.ContainsFunc(names, isClaude) {
			return pid
		}
		pid = ppid
	}
	return h.PPID
}

// isClaude reports whether a process name is Claude Code's: the native
// binary is claude (claude.exe as npm installs it).
func isClaude(name string) bool {
	base := filepath.Base(name)
	return base == "claude" || base == "claude.exe"
}

// ProcParent reads pid's parent and names from the process table: its
// command name and executable from /proc where there is one, and argv[0].
func ProcParent(pid int) (int, []string, error) {
	proc := session.SystemProc()
	st, err := proc.Stat(pid)
	if err != nil {
		return 0, nil, err
	}
	var names []string
	dir := "/proc/" + strconv.Itoa(pid) + "/"
	if b, err := os.ReadFile(dir + "comm"); err == nil {
		names = append(names, strings.TrimSuffix(string(b), "\n"))
	}
	if exe, err := os.Readlink(dir + "exe"); err == nil {
		names = append(names, strings.TrimSuffix(exe, " (deleted)"))
	}
	if argv, err := proc.Cmdline(pid); err == nil {
		if a0, _, _ := strings.Cut(string(argv), "\x00"); a0 != "" {
			names = append(names, a0)
		}
	}
	return st.PPID, names, nil
}

// StoreNote is a ClaudeHook.Note that writes into the store rac run
// writes to first (RAC_HOME or the default location), falling back to
// $TMPDIR/rac-UID as rac run does when the default cannot be written.
func StoreNote(getenv func(string) string) func(store.HarnessNote) error {
	return func(n store.HarnessNote) error {
		loc := store.Locate(getenv)
		if loc.Err != nil {
			return loc.Err
		}
		err := noteAt(loc.Path, n)
		if err != nil && !loc.Explicit && store.IsUnwritable(err) && loc.Fallback != "" {
			if ferr := noteAt(loc.Fallback, n); ferr == nil {
				return nil
			}
		}
		return err
	}
}

func noteAt(path string, n store.HarnessNote) error {
	old := syscall.Umask(0o077) // the store's files are the owner's only
	defer syscall.Umask(old)
	st, err := store.CreateStore(path)
	if err != nil {
		return err
	}
	return errors.Join(st.NoteHarness(n), st.Close())
}
