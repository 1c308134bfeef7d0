package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/ui"
)

// helpGaps are the visible commands whose help does not teach yet (no
// examples, or examples that are not rac command lines), with their
// owner's file. The test fails once one is fixed, so that it is removed
// here.
var helpGaps = map[string]string{
	"rac version": "root.go",
}

// testTree is the whole command tree, as rac builds it for one call.
func testTree() *cobra.Command {
	s, _, _, _ := ui.Test()
	c := &cli{streams: s, p: s.Printer(), env: app.Env{Getenv: func(string) string { return "" }, Now: time.Now, Version: app.Version}}
	return newRootCmd(c, false)
}

// visible is cmd and every command under it that help lists.
func visible(cmd *cobra.Command) []*cobra.Command {
	out := []*cobra.Command{cmd}
	for _, sub := range cmd.Commands() {
		if sub.IsAvailableCommand() {
			out = append(out, visible(sub)...)
		}
	}
	return out
}

// helpProblems says what keeps cmd's help from teaching: a Short, 2 to 4
// examples that are rac command lines (of cmd itself, for a command
// without subcommands), and nothing that sends the reader to a README a
// binary-only user does not have. A line may also use the command in a
// substitution: tail -f "$(rac out path last --stream stdout)".
func helpProblems(cmd *cobra.Command) []string {
	var probs []string
	if cmd.Short == "" || strings.HasSuffix(cmd.Short, ".") {
		probs = append(probs, "Short is empty or ends in a period")
	}
	var lines []string
	if cmd.Example != "" {
		lines = strings.Split(cmd.Example, "\n")
	}
	if len(lines) < 2 || len(lines) > 4 {
		probs = append(probs, fmt.Sprintf("Example has %d lines, want 2 to 4", len(lines)))
	}
	want := "  rac "
	if !cmd.HasAvailableSubCommands() {
		want = "  " + cmd.CommandPath() + " "
	}
	for _, l := range lines {
		// a command whose output is a path is shown where it is used
		inSubst := strings.HasPrefix(l, "  ") && strings.Contains(l+" ", "$("+strings.TrimSpace(want)+" ")
		if !strings.HasPrefix(l+" ", want) && !inSubst {
			probs = append(probs, fmt.Sprintf("example %q does not start with %q", l, want))
		}
	}
	text := cmd.Long + cmd.Short
	cmd.LocalFlags().VisitAll(func(f *pflag.Flag) { text += f.Usage })
	if strings.Contains(text, "README") {
		probs = append(probs, "help points to README")
	}
	return probs
}

// TestHelpTeaches walks the command tree: every visible command's help
// has a Short and 2 to 4 real examples.
func TestHelpTeaches(t *testing.T) {
	seen := map[string]bool{}
	for _, cmd := range visible(testTree()) {
		path := cmd.CommandPath()
		seen[path] = true
		probs := helpProblems(cmd)
		if owner, gap := helpGaps[path]; gap {
			assert.NotEmpty(t, probs, "%s (%s) teaches now: remove it from helpGaps", path, owner)
			continue
		}
		assert.Empty(t, probs, path)
	}
	for path := range helpGaps {
		assert.True(t, seen[path], "%s in helpGaps is no visible command", path)
	}
	// the walk reached the tree's leaves
	for _, path := range []string{"rac run", "rac out read", "rac out gc", "rac completion", "rac config"} {
		assert.True(t, seen[path], path)
	}
}

// TestHelpRuns: --help of every visible command exits 0 and shows its
// examples and its flags' non-zero defaults.
func TestHelpRuns(t *testing.T) {
	for _, cmd := range visible(testTree()) {
		args := append(strings.Fields(cmd.CommandPath())[1:], "--help")
		s, _, out, errOut := ui.Test()
		status := mainEnv(args, s, app.Env{Getenv: func(string) string { return "" }, Now: time.Now, Version: app.Version})
		require.Equal(t, 0, status, "%v: %s", args, errOut)
		if cmd.Example != "" {
			assert.Contains(t, out.String(), cmd.Example, "%v", args)
		}
		cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden && !zeroDefault(f.DefValue) {
				assert.Contains(t, out.String(), "--"+f.Name, "%v", args)
				assert.Regexp(t, `--`+f.Name+`\b.*\(default "?`+regexp.QuoteMeta(f.DefValue)+`"?\)`, out.String(), "%v: --%s shows its default", args, f.Name)
			}
		})
	}
}

// TestManPages generates a man page for every visible command (what make
// man does, with RAC_MAN_DIR naming the folder): each holds its examples
// and its flags.
// cobra/doc is linked only into this test binary, not into rac.
func TestManPages(t *testing.T) {
	dir := os.Getenv("RAC_MAN_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	source := "rac " + app.Version
	if v := os.Getenv("RAC_MAN_VERSION"); v != "" {
		source = "rac " + v
	}
	root := testTree()
	root.DisableAutoGenTag = true // no date line: the pages of one version are the same
	require.NoError(t, doc.GenManTree(root, &doc.GenManHeader{Title: "RAC", Section: "1", Source: source, Manual: "rac manual"}, dir))
	for _, cmd := range visible(root) {
		name := strings.ReplaceAll(cmd.CommandPath(), " ", "-") + ".1"
		b, err := os.ReadFile(filepath.Join(dir, name))
		if !assert.NoError(t, err, name) {
			continue
		}
		assert.Contains(t, string(b), `.TH "RAC" "1"`, name)
		if cmd.Example != "" {
			first, _, _ := strings.Cut(strings.TrimSpace(cmd.Example), "\n")
			assert.Contains(t, string(b), first, name)
		}
		// the page lists the flags --help lists (docs_test.go holds docs/
		// to the same tree)
		cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden {
				assert.Contains(t, string(b), `\fB--`+f.Name+`\fP`, "%s lists --%s", name, f.Name)
			}
		})
	}
}

// TestHelpLong: every command of the tree, hidden ones too, has long
// help (rac version's whole help is its Short), set beside the command in
// its cmd_<verb>.go.
func TestHelpLong(t *testing.T) {
	seen := map[string]bool{}
	var walk func(cmd *cobra.Command)
	walk = func(cmd *cobra.Command) {
		path := cmd.CommandPath()
		seen[path] = true
		if path != "rac version" {
			assert.NotEmpty(t, cmd.Long, "%s has no long help", path)
		}
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	walk(testTree())
	assert.True(t, seen["rac hook"], "the walk reached the hidden commands")
	assert.True(t, seen["rac out last"], "the walk reached the leaves")
}
