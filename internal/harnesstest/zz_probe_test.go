package harnesstest

import (
	"os"
	"testing"
)

func TestProbeFrames(t *testing.T) {
	if os.Getenv("PROBE") == "" {
		t.Skip()
	}
	script := []Step{Shell("echo hello; ls"), Shell("cat nosuchfile"), Say("all done here")}
	if b := need(t, "claude"); b != "" {
		w := newWorld(t)
		m := newMock(t, anthropic{}, script...)
		h := w.claude(b, m, nil)
		os.WriteFile("/tmp/digest/claude.jsonl", []byte(h.Stdout), 0o644)
		os.WriteFile("/tmp/digest/claude.err", []byte(h.Stderr), 0o644)
	}
	{
		b := need(t, "codex")
		w := newWorld(t)
		m := newMock(t, openai{}, script...)
		h := w.codex(b, m, fullAccess, "")
		os.WriteFile("/tmp/digest/codex.jsonl", []byte(h.Stdout), 0o644)
		os.WriteFile("/tmp/digest/codex.err", []byte(h.Stderr), 0o644)
	}
	{
		b := need(t, "gemini")
		w := newWorld(t)
		m := newMock(t, gemini{}, script...)
		h := w.harness(b, geminiEnv(m, w.geminiHome()), "-p", "go", "--yolo", "--output-format", "stream-json")
		os.WriteFile("/tmp/digest/gemini.jsonl", []byte(h.Stdout), 0o644)
		os.WriteFile("/tmp/digest/gemini.err", []byte(h.Stderr), 0o644)
	}
}
