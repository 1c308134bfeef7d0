package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readmeFlagGaps are what README does not document yet: a command
// ("rac config": it has no section) or one flag of one ("rac out read
// --session"). The test fails once one is documented, so that it is
// removed here.
var readmeFlagGaps = map[string]bool{}

// readmeSections maps a command path ("rac out read") to README's text
// about it: every section whose heading starts with the command in code
// (## `rac out read REF [...]`), up to the next heading of its level or
// above. "rac" is the whole README.
func readmeSections(readme string) map[string]string {
	out := map[string]string{"rac": readme}
	lines := strings.Split(readme, "\n")
	level := make([]int, len(lines)) // of each heading, 0 elsewhere (and in code blocks)
	fence := false
	for i, l := range lines {
		if strings.HasPrefix(l, "```") {
			fence = !fence
		}
		if h, _, _ := strings.Cut(l, " "); !fence && h != "" && strings.Trim(h, "#") == "" {
			level[i] = len(h)
		}
	}
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
	return out
}

var (
	cmdHeading = regexp.MustCompile("^#{2,3} `(rac[^`]*)`")
	pathWord   = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
)

// settingDefaults maps a flag (without dashes) to the default README's
// Settings table gives its setting.
func settingDefaults(readme string) map[string]string {
	_, section, _ := strings.Cut(readme, "\n## Settings\n")
	section, _, _ = strings.Cut(section, "\n## ")
	code := regexp.MustCompile("`([^`]*)`")
	out := map[string]string{}
	for line := range strings.SplitSeq(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 7 {
			continue
		}
		flag, def := code.FindStringSubmatch(cells[3]), code.FindStringSubmatch(cells[4])
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

// readmeFlagProblems says what README's sections lack about cmd's flags,
// by gap key.
func readmeFlagProblems(cmd *cobra.Command, sections, defaults map[string]string) map[string]string {
	path := cmd.CommandPath()
	text, ok := sections[path]
	probs := map[string]string{}
	if !ok {
		if !cmd.HasAvailableSubCommands() {
			probs[path] = "README has no section ## `" + path + " ...`"
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
			probs[key] = "README's section does not name --" + f.Name
		case f.Shorthand != "" && !mentions(text, "-"+f.Shorthand):
			probs[key] = "README's section does not name -" + f.Shorthand + " (--" + f.Name + ")"
		case zeroDefault(f.DefValue) || defaults[f.Name] == f.DefValue ||
			strings.Contains(text, "`"+f.DefValue+"`") || strings.Contains(text, "("+f.DefValue+")"):
		default:
			probs[key] = "README gives no default " + f.DefValue + " for --" + f.Name
		}
	})
	return probs
}

// TestREADMEFlags: every flag of every visible command is named in
// README's section about the command, with its default when it has one
// (there, or in the Settings table for a setting's flag).
func TestREADMEFlags(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	sections, defaults := readmeSections(string(b)), settingDefaults(string(b))
	require.Contains(t, sections, "rac out read")
	require.Equal(t, "100ms", defaults["drain-timeout"])
	all := map[string]string{}
	for _, cmd := range visible(testTree()) {
		for k, v := range readmeFlagProblems(cmd, sections, defaults) {
			all[k] = v
		}
	}
	for key, prob := range all {
		if !readmeFlagGaps[key] {
			assert.Fail(t, prob, key)
		}
	}
	for key := range readmeFlagGaps {
		_, still := all[key]
		assert.True(t, still, "%s is documented now: remove it from readmeFlagGaps", key)
	}
}
