package main

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/config"
)

// The manual is docs/*.md, one page per topic; README.md is what a
// newcomer reads first and links into it. These tests hold the manual to
// the command tree and the settings table, so that a flag, a command or a
// setting cannot be added without its page.

// docsFlagGaps are what docs/ does not document yet: a command ("rac
// config": it has no section) or one flag of one ("rac out read
// --session"). The test fails once one is documented, so that it is
// removed here.
var docsFlagGaps = map[string]bool{}

// readmeMaxLines keeps README.md what a newcomer reads first: the
// reference belongs in docs/.
const readmeMaxLines = 300

// docPages are the manual's pages (docs/*.md) by file name.
func docPages(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("../../docs/*.md")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	pages := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		pages[filepath.Base(f)] = string(b)
	}
	return pages
}

// allText is every page, in name order.
func allText(pages map[string]string) string {
	names := make([]string, 0, len(pages))
	for n := range pages {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		b.WriteString(pages[n])
		b.WriteString("\n")
	}
	return b.String()
}

// headingLevels gives the level of each line that is a markdown heading
// (0 elsewhere, and in code blocks).
func headingLevels(lines []string) []int {
	level := make([]int, len(lines))
	fence := false
	for i, l := range lines {
		if strings.HasPrefix(l, "```") {
			fence = !fence
		}
		if h, _, _ := strings.Cut(l, " "); !fence && h != "" && strings.Trim(h, "#") == "" {
			level[i] = len(h)
		}
	}
	return level
}

// docSections maps a command path ("rac out read") to the manual's text
// about it: every section, on any page, whose heading starts with the
// command in code (## `rac out read REF [...]`), up to the next heading
// of its level or above. "rac" is the whole manual.
func docSections(pages map[string]string) map[string]string {
	out := map[string]string{"rac": allText(pages)}
	for _, page := range pages {
		lines := strings.Split(page, "\n")
		level := headingLevels(lines)
		for i, l := range lines {
			m := cmdHeading.FindStringSubmatch(l)
			if m == nil || level[i] == 0 {
				continue
			}
			var path []string
			for _, w := range strings.Fields(m[1]) {
				if !pathWord.MatchString(w) {
					break
				}
				path = append(path, w)
			}
			end := i + 1
			for end < len(lines) && (level[end] == 0 || level[end] > level[i]) {
				end++
			}
			key := strings.Join(path, " ")
			out[key] += strings.Join(lines[i:end], "\n") + "\n"
		}
	}
	return out
}

var (
	cmdHeading = regexp.MustCompile("^#{2,3} `(rac[^`]*)`")
	pathWord   = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
	codeSpan   = regexp.MustCompile("`([^`]*)`")
)

// settingDefaults maps a flag (without dashes) to the default the
// settings table (the top of docs/settings.md) gives its setting.
func settingDefaults(settings string) map[string]string {
	section, _, _ := strings.Cut(settings, "\n## ")
	out := map[string]string{}
	for line := range strings.SplitSeq(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 7 {
			continue
		}
		flag, def := codeSpan.FindStringSubmatch(cells[3]), codeSpan.FindStringSubmatch(cells[4])
		if flag != nil && def != nil {
			out[strings.TrimPrefix(flag[1], "--")] = def[1]
		}
	}
	return out
}

// mentions tells whether text names the flag (--name, or -n) as a word.
func mentions(text, flag string) bool {
	return regexp.MustCompile(`(^|[^a-zA-Z0-9-])` + regexp.QuoteMeta(flag) + `([^a-zA-Z0-9-]|$)`).MatchString(text)
}

func zeroDefault(v string) bool { return v == "" || v == "false" || v == "0" || v == "[]" }

// docFlagProblems says what the manual's sections lack about cmd's
// flags, by gap key.
func docFlagProblems(cmd *cobra.Command, sections, defaults map[string]string) map[string]string {
	path := cmd.CommandPath()
	text, ok := sections[path]
	probs := map[string]string{}
	if !ok {
		if !cmd.HasAvailableSubCommands() {
			probs[path] = "docs/ has no section ## `" + path + " ...`"
		}
		return probs
	}
	cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden || f.Name == "help" {
			return
		}
		key := path + " --" + f.Name
		switch {
		case !mentions(text, "--"+f.Name):
			probs[key] = "the section in docs/ does not name --" + f.Name
		case f.Shorthand != "" && !mentions(text, "-"+f.Shorthand):
			probs[key] = "the section in docs/ does not name -" + f.Shorthand + " (--" + f.Name + ")"
		case zeroDefault(f.DefValue) || defaults[f.Name] == f.DefValue ||
			strings.Contains(text, "`"+f.DefValue+"`") || strings.Contains(text, "("+f.DefValue+")"):
		default:
			probs[key] = "docs/ gives no default " + f.DefValue + " for --" + f.Name
		}
	})
	return probs
}

// TestDocsFlags: every flag of every visible command is named in the
// manual's section about the command, with its default when it has one
// (there, or in the settings table for a setting's flag).
func TestDocsFlags(t *testing.T) {
	pages := docPages(t)
	sections, defaults := docSections(pages), settingDefaults(pages["settings.md"])
	require.Contains(t, sections, "rac out read")
	require.Equal(t, "100ms", defaults["drain-timeout"])
	all := map[string]string{}
	for _, cmd := range visible(testTree()) {
		for k, v := range docFlagProblems(cmd, sections, defaults) {
			all[k] = v
		}
	}
	for key, prob := range all {
		if !docsFlagGaps[key] {
			assert.Fail(t, prob, key)
		}
	}
	for key := range docsFlagGaps {
		_, still := all[key]
		assert.True(t, still, "%s is documented now: remove it from docsFlagGaps", key)
	}
}

// TestDocsCoverTree walks the whole command tree, hidden commands too
// (rac hook is installed into harnesses, so its forms are documented):
// every command path and every flag a user can pass is in docs/, and so is
// every setting's key, variable and flag.
func TestDocsCoverTree(t *testing.T) {
	text := allText(docPages(t))
	var walk func(cmd *cobra.Command)
	n := 0
	walk = func(cmd *cobra.Command) {
		n++
		path := cmd.CommandPath()
		assert.Contains(t, text, path, "docs/ never names the command %q", path)
		cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden && f.Name != "help" {
				assert.True(t, mentions(text, "--"+f.Name), "docs/ never names %s --%s", path, f.Name)
			}
		})
		for _, sub := range cmd.Commands() {
			if sub.Name() != "help" { // cobra's own
				walk(sub)
			}
		}
	}
	walk(testTree())
	assert.GreaterOrEqual(t, n, 20, "the walk reached every command")
	settings := docPages(t)["settings.md"]
	for _, d := range config.Defs() {
		assert.Contains(t, settings, "`"+d.Key+"`", "docs/settings.md never names the setting %s", d.Key)
		if d.Env != "" {
			assert.Contains(t, settings, "`"+d.Env+"`", "docs/settings.md never names %s (%s)", d.Env, d.Key)
		}
		if d.Flag != "" {
			assert.True(t, mentions(settings, "--"+d.Flag), "docs/settings.md never names --%s (%s)", d.Flag, d.Key)
		}
	}
}

// TestReadmeShort: README.md stays what a newcomer reads first, and links
// to every page of the manual.
func TestReadmeShort(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	readme := string(b)
	lines := strings.Count(readme, "\n")
	assert.LessOrEqual(t, lines, readmeMaxLines, "README.md has %d lines: move reference text into docs/", lines)
	for name := range docPages(t) {
		assert.True(t, strings.Contains(readme, "(docs/"+name+")"), "README.md does not link docs/%s", name)
	}
}

// TestDocsLinks: every relative link in README.md and docs/*.md names a
// file that exists and, with #anchor, a heading of that file (as GitHub
// makes anchors from headings).
func TestDocsLinks(t *testing.T) {
	files, err := filepath.Glob("../../docs/*.md")
	require.NoError(t, err)
	files = append(files, "../../README.md")
	anchors := map[string]map[string]bool{} // by cleaned path
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		a := map[string]bool{}
		lines := strings.Split(string(b), "\n")
		for i, level := range headingLevels(lines) {
			if level == 0 {
				continue
			}
			s := slug(strings.TrimSpace(strings.TrimLeft(lines[i], "#")))
			for n := 0; ; n++ { // a repeated heading gets -1, -2, ...
				k := s
				if n > 0 {
					k += "-" + strconv.Itoa(n)
				}
				if !a[k] {
					a[k] = true
					break
				}
			}
		}
		anchors[path] = a
		return a
	}
	checked := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range mdLink.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := f
			if file != "" {
				path = filepath.Join(filepath.Dir(f), file)
			}
			checked++
			if _, err := os.Stat(path); !assert.NoError(t, err, "%s links to %s", f, target) {
				continue
			}
			if anchor != "" {
				assert.True(t, anchorsOf(filepath.Clean(path))[anchor], "%s links to %s: no such heading", f, target)
			}
		}
	}
	assert.Greater(t, checked, 50, "the links were found")
}

var (
	mdLink    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	notInSlug = regexp.MustCompile(`[^\p{L}\p{N}_\- ]`)
)

// slug is GitHub's anchor for a heading: lower case, punctuation but - and
// _ dropped, spaces made dashes.
func slug(heading string) string {
	return strings.ReplaceAll(notInSlug.ReplaceAllString(strings.ToLower(heading), ""), " ", "-")
}

// TestCodeMap: the code map of docs/development.md names every package
// of the module: each cmd/X and internal/X as such, and a package below
// those (internal/store/tomb, internal/gc/gctest) by its last element.
func TestCodeMap(t *testing.T) {
	_, codeMap, ok := strings.Cut(docPages(t)["development.md"], "\n## Code map\n")
	require.True(t, ok, "docs/development.md has a Code map section")
	codeMap, _, _ = strings.Cut(codeMap, "\n## ")
	n := 0
	for _, top := range []string{"cmd", "internal"} {
		err := filepath.WalkDir(filepath.Join("../..", top), func(path string, d os.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case !d.IsDir():
				return nil
			case d.Name() == "testdata":
				return filepath.SkipDir
			}
			if goFiles, _ := filepath.Glob(filepath.Join(path, "*.go")); len(goFiles) == 0 {
				return nil
			}
			rel, _ := filepath.Rel("../..", path)
			rel = filepath.ToSlash(rel)
			n++
			if strings.Count(rel, "/") == 1 {
				assert.Contains(t, codeMap, "`"+rel+"`", "the code map does not name %s", rel)
			} else {
				assert.Contains(t, codeMap, d.Name(), "the code map does not name %s", rel)
			}
			return nil
		})
		require.NoError(t, err)
	}
	assert.Greater(t, n, 20, "the walk found the packages")
}
