package ui

// rac out explain's answer for an agent's transcript, coloured.

import (
	"bytes"
	"io"
	"strings"

	"github.com/rac-cli/rac/internal/agentrun"
	"github.com/rac-cli/rac/internal/explain"
)

// AgentDigest writes the digest as agentrun.Digest.WriteText does and,
// with c's colour on, paints it: the command bold, the outcome by how it
// went (as Explain paints it), the labels dim, the failure red. With
// colour off the bytes are WriteText's exactly.
func AgentDigest(w io.Writer, c *Palette, d *agentrun.Digest) error {
	if !c.Enabled() {
		return d.WriteText(w)
	}
	var buf bytes.Buffer
	if err := d.WriteText(&buf); err != nil {
		return err
	}
	var b strings.Builder
	for i, l := range strings.SplitAfter(buf.String(), "\n") {
		body, nl := strings.CutSuffix(l, "\n")
		switch {
		case body == "":
		case i == 0:
			body = c.Bold.Sprint(body)
		case i == 1:
			if rest, ok := strings.CutPrefix(body, d.Outcome); ok {
				m := explain.Meta{Status: d.Status, ExitCode: d.ExitCode}
				body = outcomeStyle(c, m).Sprint(d.Outcome) + rest
			}
		case strings.HasPrefix(body, agentrun.LabelFailure):
			body = c.Failed.Sprint(body)
		default:
			if label, rest, ok := strings.Cut(body, ": "); ok && !strings.HasPrefix(body, " ") {
				body = c.Dim.Sprint(label+":") + " " + rest
			}
		}
		b.WriteString(body)
		if nl {
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// AgentDigestJSON writes the digest's one JSON object (at most 8 KiB) and
// a newline.
func AgentDigestJSON(w io.Writer, d *agentrun.Digest) error {
	b, err := d.JSON()
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
