package redact

// Token matchers that share a prefilter literal with others or find the
// token after its literal. Their expressions are fuzzed against them in
// matchdiff_test.go like the matchers of match.go.

// matchOpenAIKey: OpenAI's project, service-account and admin keys, and the
// sk- keys of OpenAI-compatible services (and OpenAI's oldest ones), which
// are exactly 48 letters and digits. After a left boundary, the span is the
// match, or group 1 when it is set:
//
//	sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}|(sk-[A-Za-z0-9]{48})(?:[^A-Za-z0-9_]|$)
//
// The exact length and both boundaries keep task-..., disk-... and
// sk-learn out.
func matchOpenAIKey(e *engine, line []byte, hs, he int, ri, _ int32) {
	if !hasAt(line, hs, "sk-") || !lbOK(line, hs) {
		return
	}
	for _, kind := range []string{"proj-", "svcacct-", "admin-"} {
		if hasAt(line, he, kind) {
			k := he + len(kind)
			if j := runOf(line, k, &tokenSet); j-k >= 40 {
				e.add(line, hs, j, ri)
				return
			}
			break
		}
	}
	if j := runOf(line, he, &alnumSet); j-he == 48 && rbOK(line, j) {
		e.add(line, hs, j, ri)
	}
}

// matchOpenRouter: LB (sk-or-v1-[a-f0-9]{64}) RB
func matchOpenRouter(e *engine, line []byte, hs, _ int, ri, _ int32) {
	if !hasAt(line, hs, "sk-or-v1-") || !lbOK(line, hs) {
		return
	}
	k := hs + len("sk-or-v1-")
	j := k
	for j < len(line) && ((line[j] >= '0' && line[j] <= '9') || (line[j] >= 'a' && line[j] <= 'f')) {
		j++
	}
	if j-k == 64 && rbOK(line, j) {
		e.add(line, hs, j, ri)
	}
}

// matchMailchimp: LB ([a-f0-9]{32}-us[0-9]{1,2}) RB, the key and its data
// centre. "-us" alone is common (en-us, east-us), so the hit is only a hint:
// the 32 hex bytes before it decide.
func matchMailchimp(e *engine, line []byte, hs, he int, ri, _ int32) {
	if !hasAt(line, hs, "-us") || hs < 32 {
		return
	}
	s := hs - 32
	for i := s; i < hs; i++ {
		if c := line[i]; !isDigit(c) && !(c >= 'a' && c <= 'f') {
			return
		}
	}
	if !lbOK(line, s) {
		return
	}
	j := he
	for j < len(line) && j-he < 3 && isDigit(line[j]) {
		j++
	}
	if n := j - he; n < 1 || n > 2 || !rbOK(line, j) {
		return
	}
	e.add(line, s, j, ri)
}

// matchTelegram: a bare bot token, the bot's id and a secret that starts
// with AA (as every token BotFather issues does):
//
//	(?:^|[^A-Za-z0-9_]|/bot)([0-9]{8,10}:AA[A-Za-z0-9_-]{33})
//
// with no [A-Za-z0-9_-] after it. The literal is :AA, so the hit is after
// the id and the matcher walks back over it.
func matchTelegram(e *engine, line []byte, hs, he int, ri, _ int32) {
	if !hasAt(line, hs, ":AA") {
		return
	}
	s := hs
	for s > 0 && hs-s <= 10 && isDigit(line[s-1]) {
		s--
	}
	if d := hs - s; d < 8 || d > 10 {
		return
	}
	if s > 0 && wordSet[line[s-1]] && !hasAt(line, s-4, "/bot") {
		return
	}
	if j := runOf(line, he, &tokenSet); j-he == 33 {
		e.add(line, s, j, ri)
	}
}
