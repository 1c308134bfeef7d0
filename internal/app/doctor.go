package app

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/rac-cli/rac/internal/agentinit"
	"github.com/rac-cli/rac/internal/gc"
	"github.com/rac-cli/rac/internal/session"
	"github.com/rac-cli/rac/internal/store"
	"github.com/rac-cli/rac/internal/units"
)

// Check states: a check that holds, one worth knowing about, and one that
// stops rac from doing its job.
const (
	CheckOK   = "ok"
	CheckWarn = "warn"
	CheckFail = "fail"
)

// Check is one line of rac doctor: what was looked at, what was found, and
// for a problem the command that fixes it. It is also rac doctor --json's
// shape.
type Check struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// DoctorEnv is what rac doctor looks at beyond the App's environment: the
// running binary and where harness settings live. Empty fields are found
// the usual way.
type DoctorEnv struct {
	// Self is the running rac (os.Executable).
	Self string
	// LookPath finds a program on PATH (exec.LookPath).
	LookPath func(string) (string, error)
	// Cwd is the working folder (project settings of the harnesses).
	Cwd string
}

// Doctor checks rac's set-up: rac on PATH, where recordings go, the
// session this shell lands in and why, the harness hooks, redaction and
// the last gc. It changes nothing.
func (a *App) Doctor(d DoctorEnv) []Check {
	if d.LookPath == nil {
		d.LookPath = exec.LookPath
	}
	if d.Self == "" {
		d.Self, _ = os.Executable()
	}
	if d.Cwd == "" {
		d.Cwd, _ = os.Getwd()
	}
	checks := []Check{a.checkPath(d)}
	checks = append(checks, a.checkStore()...)
	checks = append(checks, a.checkSession(), a.checkHooks(d), a.checkRedaction(), a.checkGC())
	return checks
}

// ConfigCheck is the check of the settings: the problems the front end
// met reading them (each a line rac run warns with: a bad value, a config
// file it cannot use), which rac run goes on without.
func ConfigCheck(problems []string) Check {
	c := Check{Name: "settings", Status: CheckOK, Detail: "the config file and RAC_* variables are all usable"}
	if len(problems) == 0 {
		return c
	}
	c.Status, c.Detail = CheckFail, problems[0]
	if len(problems) > 1 {
		c.Detail += fmt.Sprintf(" (and %d more)", len(problems)-1)
	}
	c.Fix = "fix the file or variable named; 'rac config' lists every key (rac run goes on with the defaults meanwhile)"
	return c
}

func (a *App) checkPath(d DoctorEnv) Check {
	c := Check{Name: "rac on PATH"}
	found, err := d.LookPath("rac")
	switch {
	case err != nil:
		c.Status, c.Detail = CheckFail, "no rac on PATH: hooks, shell-init and agents cannot call it"
		if d.Self != "" {
			c.Fix = "export PATH=\"" + filepath.Dir(d.Self) + ":$PATH\""
		}
	case d.Self != "" && !sameFile(found, d.Self):
		c.Status, c.Detail = CheckWarn, fmt.Sprintf("PATH's rac is %s, not this one (%s)", found, d.Self)
		c.Fix = "put " + filepath.Dir(d.Self) + " first on PATH, or remove the other rac"
	default:
		c.Status, c.Detail = CheckOK, found
	}
	return c
}

func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// checkStore says where rac run records: the store, or the fallback when
// the store cannot be written (a sandbox), and whether anything can be. It
// makes the checks rac run makes (store.Inspect: the store root and this
// shell's session folder), so a store rac run refuses as unsafe fails here
// too.
func (a *App) checkStore() []Check {
	loc := store.Locate(a.env.Getenv)
	c := Check{Name: "store"}
	if loc.Err != nil {
		c.Status, c.Detail, c.Fix = CheckFail, loc.Err.Error(), "export RAC_HOME=$HOME/.local/state/rac"
		return []Check{c}
	}
	sess := ""
	if id, err := a.Identify(false); err == nil {
		sess = id.Name
	}
	werr := store.Inspect(loc.Path, sess)
	switch {
	case werr == nil:
		c.Status, c.Detail = CheckOK, loc.Path+" (writable)"
		if _, err := os.Lstat(loc.Fallback); err == nil && !loc.Explicit && loc.Fallback != loc.Path {
			return []Check{c, {Name: "fallback store", Status: CheckWarn,
				Detail: loc.Fallback + " holds recordings made when the store could not be written; rac out searches both"}}
		}
		return []Check{c}
	case !store.IsUnwritable(werr):
		// rac run refuses it and does not fall back: an unsafe store is
		// fixed, not worked around
		c.Status, c.Detail = CheckFail, fmt.Sprintf("rac run records nothing: %v", werr)
		c.Fix = "make it a private folder of yours (chmod 700, not a symlink), or export RAC_HOME to one"
		return []Check{c}
	case loc.Explicit:
		c.Status, c.Detail = CheckFail, fmt.Sprintf("RAC_HOME %s cannot be written: %v", loc.Path, werr)
		c.Fix = "export RAC_HOME to a folder you own, or allow writes to it in the sandbox"
		return []Check{c}
	}
	if ferr := store.Inspect(loc.Fallback, sess); ferr == nil {
		c.Status, c.Detail = CheckWarn, fmt.Sprintf("%s cannot be written (%v); recordings go to %s", loc.Path, werr, loc.Fallback)
		c.Fix = "allow writes to " + loc.Path + " (for Codex: -s workspace-write), or export RAC_HOME"
		return []Check{c}
	}
	c.Status = CheckFail
	c.Detail = fmt.Sprintf("nothing can be written (%s: %v; %s too): commands run unrecorded", loc.Path, werr, loc.Fallback)
	c.Fix = "allow writes (for Codex: -s workspace-write), or export RAC_HOME to a writable folder"
	return []Check{c}
}

func (a *App) checkSession() Check {
	c := Check{Name: "session"}
	id, err := a.Identify(false)
	if err != nil {
		c.Status, c.Detail, c.Fix = CheckFail, FirstLine(err), "export RAC_SESSION=NAME ("+session.NameForm+")"
		return c
	}
	how := id.Rule
	if id.Var != "" {
		how += " (" + id.Var + ")"
	}
	c.Status, c.Detail = CheckOK, id.Name+", from "+how
	if !id.FromAgent && strings.HasPrefix(id.Name, "tty-") {
		c.Detail += "; each terminal is its own session"
		c.Fix = "to share recordings across terminals: eval \"$(rac shell-init bash --session me)\" (or export RAC_SESSION=me)"
	}
	return c
}

// harnessFiles are the settings files where rac agent-init installs its
// hooks, per harness, in the working folder and user-wide (agentinit
// says where), and Claude Code's local project settings.
func (a *App) harnessFiles(cwd string) map[string][]string {
	files := map[string][]string{}
	for _, h := range []string{"claude", "codex", "gemini"} {
		files[h] = agentinit.HookFiles(h, a.env.Getenv, cwd)
	}
	files["claude"] = append(files["claude"], filepath.Join(cwd, ".claude", "settings.local.json"))
	return files
}

func (a *App) checkHooks(d DoctorEnv) Check {
	c := Check{Name: "agent hooks"}
	var with, without []string
	files := a.harnessFiles(d.Cwd)
	for _, h := range []string{"claude", "codex", "gemini"} {
		found := ""
		for _, f := range files[h] {
			// rac hook NAME, or rac named by a quoted path ('/a b/rac' hook)
			if b, err := readSmall(f); err == nil && (strings.Contains(string(b), "rac hook") || strings.Contains(string(b), "rac' hook")) {
				found = f
				break
			}
		}
		if found != "" {
			with = append(with, h+" ("+found+")")
		} else {
			without = append(without, h)
		}
	}
	switch {
	case len(with) == 0:
		c.Status, c.Detail = CheckWarn, "no harness has rac's hooks: agents record only what they run through rac run themselves"
		c.Fix = "rac agent-init claude (or codex, gemini)"
	default:
		c.Status, c.Detail = CheckOK, "installed for "+strings.Join(with, ", ")
		if len(without) > 0 {
			c.Detail += "; not for " + strings.Join(without, ", ")
		}
		if strings.Contains(strings.Join(with, " "), "codex") {
			c.Detail += "; Codex runs a hook only once it is trusted"
		}
	}
	return c
}

// readSmall reads a settings file of at most 1 MiB.
func readSmall(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 1<<20))
}

func (a *App) checkRedaction() Check {
	if !a.set.RedactEnabled {
		return Check{Name: "redaction", Status: CheckWarn, Detail: "off: secrets in output are stored as printed",
			Fix: "unset RAC_REDACT_ENABLED (or set redact.enabled: true)"}
	}
	if _, err := a.Redactor(); err != nil {
		return Check{Name: "redaction", Status: CheckFail, Detail: FirstLine(err), Fix: "fix redact.rules in the config file"}
	}
	return Check{Name: "redaction", Status: CheckOK, Detail: "on"}
}

// checkGC says when gc last ran; a store gc has not seen for much longer
// than gc.interval is worth knowing about (retention is bounded by it).
func (a *App) checkGC() Check {
	c := Check{Name: "last gc"}
	loc := store.Locate(a.env.Getenv)
	st, err := store.OpenStore(loc.Path)
	if err != nil {
		c.Status, c.Detail = CheckOK, "no store yet"
		return c
	}
	defer st.Close()
	fi, err := st.Root().Lstat(gc.StampFile)
	if err != nil {
		c.Status, c.Detail = CheckOK, "never (it runs after rac run, at most once per gc.interval)"
		return c
	}
	now := a.env.Now()
	ago := now.Sub(fi.ModTime())
	c.Status, c.Detail = CheckOK, units.Ago(fi.ModTime(), now)
	if limit := max(a.set.GC.Interval*24, 24*time.Hour); ago > limit {
		c.Status, c.Fix = CheckWarn, "rac out gc"
	}
	if a.set.GC.Off {
		c.Status, c.Detail = CheckWarn, c.Detail+"; automatic gc is off (a bad gc.* setting)"
	}
	return c
}
