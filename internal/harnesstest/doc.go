// Package harnesstest holds the end-to-end suite that drives the real
// agent harnesses (Claude Code, Codex CLI, Gemini CLI, pinned versions
// installed by scripts/harness.sh) against mock model servers written
// here: Go httptest servers on 127.0.0.1 that answer with scripted tool
// calls and log every request, so a test asserts the exact tool result
// the model received. Everything is in _test files: the suite runs only
// with RAC_HARNESS=1 (make harness) and never reaches a real model API.
//
// It must never talk to anything but 127.0.0.1, and never depend on a
// harness found on the developer's own PATH: only the binaries in
// RAC_HARNESS_BIN are used.
package harnesstest
