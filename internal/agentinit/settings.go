package agentinit

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/rac-cli/rac/internal/termtext"
)

// handler and group are the hook entries of Claude Code, Codex and Gemini
// CLI, which share one shape: hooks.EVENT is a list of groups, each a
// matcher and a list of command handlers.
type handler struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Name    string `json:"name,omitempty"`
	Timeout int    `json:"timeout,omitempty"`
}

type group struct {
	Matcher string    `json:"matcher,omitempty"`
	Hooks   []handler `json:"hooks"`
}

// route is one hook rac installs: the event, and the group holding the
// handler "rac hook NAME".
type route struct {
	event, name string
	group       group
}

// isOurs reports whether a handler's command is "rac hook NAME" (rac by
// any path, plain or in the single quotes of termtext.ShellQuote).
func isOurs(command, name string) bool {
	if prog, ok := strings.CutSuffix(strings.TrimSpace(command), " hook "+name); ok && len(prog) > 2 && prog[0] == '\'' {
		unq, ok := strings.CutSuffix(prog[1:], "'")
		return ok && path.Base(strings.ReplaceAll(unq, `'\''`, "'")) == "rac"
	}
	f := strings.Fields(command)
	return len(f) == 3 && path.Base(f[0]) == "rac" && f[1] == "hook" && f[2] == name
}

// hookCommand is the handler command running rac's hook name: prog as one
// shell word (the harnesses run it through a shell).
func hookCommand(prog, name string) string {
	return termtext.ShellQuote(prog) + " hook " + name
}

// find returns the hooks.EVENT array and, when rac's handler NAME is in it,
// the group index and handler index; a shape rac cannot edit is an error.
func find(root *node, event, name string) (arr *node, gi, hi int, err error) {
	if root.kind != '{' {
		return nil, -1, -1, fmt.Errorf("its top level is not an object")
	}
	hooks, _ := root.get("hooks")
	if hooks == nil {
		return nil, -1, -1, nil
	}
	if hooks.kind != '{' {
		return nil, -1, -1, fmt.Errorf(`its "hooks" is not an object`)
	}
	arr, _ = hooks.get(event)
	if arr == nil {
		return nil, -1, -1, nil
	}
	if arr.kind != '[' {
		return nil, -1, -1, fmt.Errorf(`its "hooks.%s" is not a list`, event)
	}
	for g, grp := range arr.elems {
		hs, _ := grp.get("hooks")
		if hs == nil || hs.kind != '[' {
			continue
		}
		for h, hd := range hs.elems {
			if c, _ := hd.get("command"); c != nil && c.kind == '"' && isOurs(c.str, name) {
				return arr, g, h, nil
			}
		}
	}
	return arr, -1, -1, nil
}

// installRoute adds r to the settings text b unless it is there already.
func installRoute(b []byte, r route) ([]byte, bool, error) {
	root, err := parseJSON(b)
	if err != nil {
		return nil, false, err
	}
	arr, gi, _, err := find(root, r.event, r.name)
	switch {
	case err != nil:
		return nil, false, err
	case gi >= 0:
		return b, false, nil
	case arr != nil:
		out, err := insert(b, arr, "", r.group)
		return out, true, err
	}
	if hooks, _ := root.get("hooks"); hooks != nil {
		out, err := insert(b, hooks, r.event, []group{r.group})
		return out, true, err
	}
	out, err := insert(b, root, "hooks", map[string][]group{r.event: {r.group}})
	return out, true, err
}

// removeRoute deletes rac's handler NAME of event from b, with the group,
// list and hooks object that held only it.
func removeRoute(b []byte, event, name string) ([]byte, bool, error) {
	changed := false
	for {
		root, err := parseJSON(b)
		if err != nil {
			return nil, false, err
		}
		arr, gi, hi, err := find(root, event, name)
		if err != nil {
			return nil, false, err
		}
		if gi < 0 {
			return b, changed, nil
		}
		changed = true
		grp := arr.elems[gi]
		hs, _ := grp.get("hooks")
		onlyOurs := len(hs.elems) == 1 && !slices.ContainsFunc(grp.keys, func(k string) bool { return k != "matcher" && k != "hooks" })
		hooks, _ := root.get("hooks")
		_, ei := hooks.get(event)
		_, ki := root.get("hooks")
		switch {
		case !onlyOurs:
			b = remove(b, hs, hi)
		case len(arr.elems) > 1:
			b = remove(b, arr, gi)
		case len(hooks.elems) > 1:
			b = remove(b, hooks, ei)
		default:
			b = remove(b, root, ki)
		}
	}
}
