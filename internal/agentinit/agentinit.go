// Package agentinit installs rac's route into an agent harness: its hooks
// into the harness's settings file (Claude Code, Codex, Gemini CLI), or a
// short instructions block into AGENTS.md, CLAUDE.md or GEMINI.md.
//
// It edits a file only by inserting its own text and removing exactly that
// text again: every other key, hook and byte stays as it was, a file it
// cannot parse is refused untouched, and the previous contents are kept
// before any change (backupName: in a git tree under .git/rac-backup/,
// else in FILE.rac-backup). It never prints: it returns what it
// did for the caller to tell.
package agentinit

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Targets are the names agent-init takes.
var Targets = []string{"claude", "codex", "gemini", "agents-md", "claude-md", "gemini-md"}

// Options are one agent-init call.
type Options struct {
	Target string
	// User and Project choose the file; neither: the target's default
	// (the user's settings for a harness, the project's file for a -md).
	User, Project bool
	// Print: return the file as it would become; change nothing.
	Print bool
	// Remove rac's route instead of installing it.
	Remove bool
	// Rewrite: for claude, also the PreToolUse rewrite.
	Rewrite bool
	// MCP: register rac-mcp as the harness's MCP server "rac" instead of
	// installing the hooks (claude, codex, gemini).
	MCP    bool
	Getenv func(string) string
	// Cwd is the project folder ("": the working folder).
	Cwd string
	// Program is how the harness runs rac: "rac" (when empty) where the
	// harness finds this rac by that name, else its absolute path
	// (shellinit.Program).
	Program string
	// Exe is rac's absolute path: what the MCP registration's server runs
	// (Program when empty), since a harness starts its servers with its
	// own PATH (Codex with almost no environment at all).
	Exe string
	// MCPServer is rac-mcp's absolute path: the MCP registration's command.
	MCPServer string
}

// Result says what Run did.
type Result struct {
	Path    string
	Changed bool
	// Deleted: removing left nothing, so the file is gone.
	Deleted bool
	// Backup holds the file as it was before the change ("" when there was
	// no file, or nothing changed).
	Backup string
	// Text is the file as it would become (with Print).
	Text []byte
	// Notes are what the person must know or do next.
	Notes  []string
	remove bool
	target string
}

// Summary is one line saying what was done.
func (r Result) Summary() string {
	switch {
	case !r.Changed:
		return "nothing to change in " + r.Path
	case r.Deleted:
		return "removed " + r.Path + " (only rac's entry was in it)"
	case r.remove:
		return r.target + " removed from " + r.Path
	}
	return r.target + " installed in " + r.Path
}

// ErrUsage marks a bad target or flag combination.
var ErrUsage = errors.New("usage error")

type usageErr string

func (e usageErr) Error() string        { return string(e) }
func (e usageErr) Is(target error) bool { return target == ErrUsage }
func usageError(msg string) error       { return usageErr(msg) }

// Run installs or removes the route of o.Target.
func Run(o Options) (Result, error) {
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	if o.Program == "" {
		o.Program = "rac"
	}
	if o.User && o.Project {
		return Result{}, usageError("--user and --project exclude each other")
	}
	if o.Rewrite && (o.Target != "claude" || o.MCP) {
		return Result{}, usageError("--rewrite is for claude's hooks only, not with --mcp")
	}
	pick := o.file
	if o.MCP {
		pick = o.mcpFile
	}
	file, err := pick()
	if err != nil {
		return Result{}, err
	}
	if o.MCP && !o.Remove && o.MCPServer == "" {
		return Result{}, errors.New("--mcp registers rac-mcp, the MCP server, which is neither beside rac nor on PATH: make build puts both in bin/ (or go build -o DIR/ ./cmd/rac ./cmd/rac-mcp); nothing was changed")
	}
	res := Result{Path: file, remove: o.Remove, target: o.Target}
	if o.MCP {
		res.target = "the MCP server rac (" + o.Target + ")"
	}
	old, err := os.ReadFile(file)
	missing := errors.Is(err, fs.ErrNotExist)
	if err != nil && !missing {
		return res, err
	}
	var next []byte
	switch {
	case o.MCP:
		next, err = o.editMCP(old, missing)
		if err != nil {
			return res, fmt.Errorf("%s: %w; nothing was changed", file, err)
		}
	case strings.HasSuffix(o.Target, "-md"):
		next = editBlock(old, o.Remove)
	default:
		next, err = o.editSettings(old, missing)
		if err != nil {
			return res, fmt.Errorf("%s: %w; nothing was changed (fix the file or move it away, then run this again)", file, err)
		}
	}
	res.Changed = !bytes.Equal(old, next) || (missing && !o.Remove && next != nil)
	res.Notes = o.notes()
	if o.Print {
		res.Text = next
		return res, nil
	}
	if !res.Changed {
		return res, nil
	}
	return res, write(file, old, missing, next, &res)
}

func (o Options) file() (string, error) {
	type where struct{ user, project string }
	files := map[string]where{
		"claude":    {path.Join(o.dir("CLAUDE_CONFIG_DIR", ".claude"), "settings.json"), ".claude/settings.json"},
		"codex":     {path.Join(o.dir("CODEX_HOME", ".codex"), "hooks.json"), ".codex/hooks.json"},
		"gemini":    {path.Join(o.dir("GEMINI_CLI_HOME", ""), ".gemini", "settings.json"), ".gemini/settings.json"},
		"agents-md": {path.Join(o.dir("CODEX_HOME", ".codex"), "AGENTS.md"), "AGENTS.md"},
		"claude-md": {path.Join(o.dir("CLAUDE_CONFIG_DIR", ".claude"), "CLAUDE.md"), "CLAUDE.md"},
		"gemini-md": {path.Join(o.dir("GEMINI_CLI_HOME", ""), ".gemini", "GEMINI.md"), "GEMINI.md"},
	}
	w, ok := files[o.Target]
	if !ok {
		return "", usageError(fmt.Sprintf("unknown target %q (want one of %s)", o.Target, strings.Join(Targets, ", ")))
	}
	return o.pick(w.user, w.project)
}

// dir is the folder env names, else sub of the home folder.
func (o Options) dir(env, sub string) string {
	if v := o.Getenv(env); v != "" {
		return v
	}
	return path.Join(o.Getenv("HOME"), sub)
}

// pick is the user's file or the project's (project is relative to the
// project folder), as the flags and the target say.
func (o Options) pick(user, project string) (string, error) {
	inProject := !o.User && (o.Project || strings.HasSuffix(o.Target, "-md"))
	if !inProject {
		if o.Getenv("HOME") == "" && !strings.HasPrefix(user, "/") {
			return "", errors.New("HOME is not set: use --project, or set HOME")
		}
		return filepath.FromSlash(user), nil
	}
	cwd := o.Cwd
	if cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("the working folder: %w", err)
		}
		cwd = wd
	}
	return filepath.Join(cwd, filepath.FromSlash(project)), nil
}

// routes are the hooks of a harness; with rewrite, claude gets both.
func (o Options) routes() []route {
	cmd := func(name string) []handler {
		return []handler{{Type: "command", Command: hookCommand(o.Program, name)}}
	}
	switch o.Target {
	case "claude":
		rs := []route{{"SessionStart", "claude-session", group{Hooks: cmd("claude-session")}}}
		if o.Rewrite || o.Remove {
			h := cmd("claude")
			h[0].Timeout = 10
			rs = append(rs, route{"PreToolUse", "claude", group{Matcher: "Bash", Hooks: h}})
		}
		return rs
	case "codex":
		return []route{{"PreToolUse", "codex", group{Matcher: "Bash", Hooks: cmd("codex")}}}
	default:
		h := cmd("gemini")
		h[0].Name = "rac"
		return []route{{"BeforeTool", "gemini", group{Matcher: "run_shell_command", Hooks: h}}}
	}
}

// emptyFile is what a settings file that did not exist starts as, and what
// removing everything of rac's from it leaves (then it is deleted).
const emptyFile = "{}\n"

func (o Options) editSettings(old []byte, missing bool) ([]byte, error) {
	b := old
	if missing {
		if o.Remove {
			return nil, nil
		}
		b = []byte(emptyFile)
	}
	for _, r := range o.routes() {
		var err error
		if o.Remove {
			b, _, err = removeRoute(b, r.event, r.name)
		} else {
			b, _, err = installRoute(b, r)
		}
		if err != nil {
			return nil, err
		}
	}
	if o.Remove && string(b) == emptyFile && !bytes.Equal(old, b) {
		return nil, nil // only rac's hooks were in it: it goes
	}
	return b, nil
}

func (o Options) notes() []string {
	if o.Remove {
		return nil
	}
	if o.MCP {
		return o.mcpNotes()
	}
	switch o.Target {
	case "claude":
		if o.Rewrite {
			return []string{
				"the PreToolUse hook rewrites a command to 'rac run -- CMD' only when your settings already allow CMD (an allow rule, no deny or ask rule) or in bypassPermissions mode, and then answers allow; every other command runs as typed (the SessionStart functions still record it)",
				"trade-off: Claude Code shows and checks the rewritten text, and allowances rac cannot read (its built-in read-only commands, --allowedTools, grants you gave in the session) leave a command unrewritten",
			}
		}
		return []string{"the SessionStart hook defines shell functions for the wrapped programs in every Bash call: the model's command text, and so permissions and exit-code reading, stay as they are; 'rac agent-init claude --rewrite' adds the PreToolUse rewrite"}
	case "codex":
		return []string{
			"Codex runs a hook only once it is trusted: open codex and trust it in the hooks browser (/hooks), or pass --dangerously-bypass-hook-trust to codex exec",
			"the hook rewrites only when Codex never asks for approval (codex exec, -a never) and no rules file forbids or prompts; in the default read-only sandbox rac cannot record (use -s workspace-write)",
		}
	case "gemini":
		return []string{"Gemini CLI runs the hook on calls it has already approved, and it passes the conversation id on (RAC_SESSION) so a resumed conversation stays in one session"}
	}
	return nil
}

// write replaces file with next (nil: delete it), keeping a backup of old.
// A file that is a symlink (dotfiles kept by stow, chezmoi or home-manager)
// stays one: its target is written, and never deleted (it is left with
// what it holds besides rac's entry, an empty document).
func write(file string, old []byte, missing bool, next []byte, res *Result) error {
	if target, ok, err := symlinkTarget(file); err != nil {
		return err
	} else if ok {
		if next == nil {
			next = emptyDocument(file)
		}
		if err := writeTo(file, target, old, false, next, res); err != nil {
			return fmt.Errorf("%s is a symlink to %s, which rac cannot write (%w): add rac's entry where your dotfiles are kept, or run with --print", file, target, unwrapPath(err))
		}
		return nil
	}
	return writeTo(file, file, old, missing, next, res)
}

// writeTo is write of file (its name for people and its backup's) into
// target, the file itself or a symlink's target.
func writeTo(file, target string, old []byte, missing bool, next []byte, res *Result) error {
	mode := fs.FileMode(0o600)
	// no backup of a file that goes: it held only rac's entry
	if !missing && next != nil {
		if st, err := os.Stat(target); err == nil {
			mode = st.Mode().Perm()
		}
		res.Backup = backupName(file)
		if err := os.MkdirAll(filepath.Dir(res.Backup), 0o700); err != nil {
			return fmt.Errorf("backup: %w", err)
		}
		if err := writeFile(res.Backup, old, 0o600); err != nil {
			return fmt.Errorf("backup: %w", err)
		}
	}
	if next == nil {
		res.Deleted = !missing
		if missing {
			return nil
		}
		if err := os.Remove(target); err != nil {
			return err
		}
		// a folder the entry alone needed (an install made ~/.codex for
		// hooks.json) goes with it; one holding anything else stays
		_ = os.Remove(filepath.Dir(target))
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
		return err
	}
	return writeFile(target, next, mode)
}

// backupName is where the file as it was before a change is kept: in a
// git working tree, under its git folder (.git/rac-backup/PATH), where it
// is never committed and never clutters the project; elsewhere beside the
// file, as FILE.rac-backup.
func backupName(file string) string {
	if gitDir, rel, ok := inGitTree(file); ok {
		return filepath.Join(gitDir, "rac-backup", rel)
	}
	return file + ".rac-backup"
}

// inGitTree finds the working tree holding file: its git folder (.git, or
// the folder a .git file names, as in a linked worktree) and file's path
// inside the tree.
func inGitTree(file string) (gitDir, rel string, ok bool) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", "", false
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		dot := filepath.Join(dir, ".git")
		if fi, err := os.Stat(dot); err == nil {
			if fi.IsDir() {
				gitDir = dot
			} else if b, err := os.ReadFile(dot); err == nil && bytes.HasPrefix(b, []byte("gitdir: ")) {
				gitDir = strings.TrimSpace(string(b[len("gitdir: "):]))
				if !filepath.IsAbs(gitDir) {
					gitDir = filepath.Join(dir, gitDir)
				}
			}
			if gitDir == "" {
				return "", "", false
			}
			rel, err = filepath.Rel(dir, abs)
			return gitDir, rel, err == nil
		}
		if filepath.Dir(dir) == dir {
			return "", "", false
		}
	}
}

// symlinkTarget is the file a symlink at name finally names (ok false:
// name is no symlink, or does not exist).
func symlinkTarget(name string) (string, bool, error) {
	fi, err := os.Lstat(name)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return "", false, nil
	}
	target, err := filepath.EvalSymlinks(name)
	if err != nil {
		return "", false, fmt.Errorf("%s is a symlink rac cannot follow: %w", name, unwrapPath(err))
	}
	return target, true, nil
}

// emptyDocument is what a file holds when only rac's entry was in it.
func emptyDocument(name string) []byte {
	if strings.HasSuffix(name, ".json") {
		return []byte("{}\n")
	}
	return []byte{}
}

// unwrapPath is err without the path a PathError repeats.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// writeFile writes b to name through a temporary file and a rename, so a
// harness never reads half a settings file.
func writeFile(name string, b []byte, mode fs.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(b)
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		_ = os.Remove(tmp)
	}
	return err
}

// HookFiles are the settings files where Run installs harness's hooks
// (claude, codex or gemini): the project's, in cwd, and the user's ("" when
// HOME is not set and the harness's own variable does not say). rac doctor
// looks in them.
func HookFiles(harness string, getenv func(string) string, cwd string) []string {
	var files []string
	if p, err := (Options{Target: harness, Project: true, Getenv: getenv, Cwd: cwd}).file(); err == nil {
		files = append(files, p)
	}
	if u, err := (Options{Target: harness, User: true, Getenv: getenv, Cwd: cwd}).file(); err == nil {
		files = append(files, u)
	}
	return files
}
