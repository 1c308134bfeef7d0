package redact

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// Argv as a grammar. A secret in a command line is rarely recognisable by its
// shape (mysql -pS3cret, sshpass -p hunter2, --token abc): what makes it
// secret is the flag before it or its place among the arguments. This file
// reads a command line the way its program would, from a table of such
// places, and reports the byte ranges of the secrets in it. The same grammar
// runs on argv as rac stores and shows it (ArgvRules.Argv), on a command line
// kept as one string (ArgvRules.Line: tombstones), and in output, on command
// lines echoed by set -x or ps (flagrules.go).
//
// Two rules, in this order:
//
//   - the table: entries for a program (docker login -p X, mysql -pX,
//     htpasswd -b FILE USER X, openssl -passout pass:X), built in below and
//     extended by the redact.args setting in the same syntax;
//   - any program: a flag whose name IsSecretName accepts (--password,
//     --client-secret, -token) takes the next argument as its value, or the
//     text after its '=', unless secretFlagName says the name describes the
//     secret instead of carrying it (--password-stdin, --passphrase-fd,
//     --ask-pass) or the table marks it with '!'.
//
// A program is found at the start of argv and after a program that runs
// another one (sudo, env, timeout, xargs, ssh, docker exec, kubectl exec --,
// rac run --): there the first argument that names a table program starts
// that program's command line. After "--" a program's own table entries stop,
// but the any-program rule goes on: what follows "--" is usually another
// program's arguments (npm run x -- --token X). A shell's -c script is read
// as a command line of its own.

// Marker ids of the grammar: a flag's value, and a secret that is an
// argument of its own.
const (
	secretFlagID = "secret-flag"
	secretArgID  = "secret-arg"
)

type argKind uint8

const (
	argValue    argKind = iota // FLAG: the next argument, or the text after FLAG=
	argGlued                   // FLAG=: only a value glued to the flag: -pVALUE, --password=VALUE
	argNoSecret                // !FLAG: the flag carries no secret (and takes no value)
	argPos                     // N: the Nth argument after the command's words
	argPair                    // pair: NAME VALUE (or NAME=VALUE), secret when NAME is
)

// argEntry is one parsed entry of the table.
type argEntry struct {
	prog   string   // base name of the program; "*" for any
	words  []string // words that must come first, in order (login, configure set)
	need   []string // flags that must be given: -b, or -nb for both -n and -b
	kind   argKind
	flag   string
	prefix string // the secret is what follows this prefix; "*:" what follows the first ':'
	pos    int
	// kv: an argument NAME=VALUE in this place is a setting, not the secret
	// (vault login -method=userpass username=NAME password=...: the
	// assignment rule sees those)
	kv bool
}

// argDef is a built-in entry: its spec in the redact.args syntax, and what
// that syntax cannot say.
type argDef struct {
	spec string
	kv   bool
}

// builtinArgs is the table. Each entry is COMMAND:SPEC (see ParseArgSpec);
// the comment above a group names the documentation the flags come from.
// Flags that the any-program rule already covers (--password X,
// --passphrase X, kubectl --token X) need no entry unless the program reads
// them differently.
var builtinArgs = []argDef{
	// docker login, podman login, helm registry login: -p, --password; the
	// --password-stdin form reads the secret from stdin (docker-login(1),
	// podman-login(1), helm registry login --help).
	{spec: "docker login:-p"},
	{spec: "podman login:-p"},
	{spec: "buildah login:-p"},
	{spec: "skopeo login:-p"},
	{spec: "nerdctl login:-p"},
	{spec: "helm registry login:-p"},
	{spec: "*:!--password-stdin"},
	// helm repo add --password X is the any-program rule.

	// sshpass: -pPASSWORD or -p PASSWORD (getopt); -f FILE, -d FD and -e
	// [VAR] name where the password is (sshpass(1)).
	{spec: "sshpass:-p"},
	{spec: "sshpass:-p="},

	// MySQL and MariaDB clients: -pPASSWORD, glued; -p alone prompts and
	// the next argument is the database ("with the short form -p, there
	// must be no space between the option and its value", MySQL client and
	// Shell option reference). --password=PASSWORD is the any-program rule,
	// and so is --password WORD: MySQL would prompt and read WORD as the
	// database, but a word typed after --password is most likely the
	// password, and hiding a database name costs little.
	{spec: "mysql:-p="}, {spec: "mysqldump:-p="}, {spec: "mysqladmin:-p="},
	{spec: "mysqlimport:-p="}, {spec: "mysqlcheck:-p="}, {spec: "mysqlshow:-p="},
	{spec: "mysqlsh:-p="}, {spec: "mariadb:-p="}, {spec: "mariadb-dump:-p="},
	{spec: "mariadb-admin:-p="},
	// psql has no password flag (PGPASSWORD, ~/.pgpass, or -W to prompt);
	// a password in its connection string is a URL or password=... and the
	// URL and assignment rules see it.

	// Redis: -a PASSWORD and --pass PASSWORD; --askpass prompts
	// (redis-cli --help).
	{spec: "redis-cli:-a"},
	{spec: "redis-cli:--pass"},

	// MongoDB shells and tools: -p PASSWORD, --password PASSWORD; -p alone
	// prompts (mongosh options, "Authenticate a User").
	{spec: "mongo:-p"}, {spec: "mongosh:-p"},
	{spec: "mongodump:-p"}, {spec: "mongorestore:-p"},
	{spec: "mongoexport:-p"}, {spec: "mongoimport:-p"},

	// kubectl --token X, kubectl config set-credentials --token=X
	// --password=X: the any-program rule.

	// AWS CLI: aws configure set NAME VALUE, where NAME may carry a
	// profile (default.aws_secret_access_key); aws_secret_access_key and
	// aws_session_token are secret, aws_access_key_id and region are not.
	{spec: "aws configure set:pair"},

	// Apache htpasswd: -b takes the password from the command line:
	// htpasswd -b[cmBdpsDv] FILE USER PASSWORD, and with -n (no file)
	// htpasswd -nb USER PASSWORD (htpasswd(1)). -C COST and -r ROUNDS take
	// a value (see argTakesValue).
	{spec: "htpasswd -b:3"},
	{spec: "htpasswd -n -b:2"},

	// OpenSSL: -passin, -passout, -pass and -password take a pass phrase
	// argument, of which only pass:PASSWORD holds the secret (env:VAR,
	// file:PATH, fd:N and stdin say where it is: openssl-passphrase-options(1));
	// enc -k PASSWORD, enc -K KEY (the raw key in hex); ca -key PASSWORD
	// (openssl-enc(1), openssl-ca(1)). OpenSSL options are whole words:
	// -kfile and -keyform are other options, so nothing is glued.
	{spec: "openssl:-passin pass:"},
	{spec: "openssl:-passout pass:"},
	{spec: "openssl:-pass pass:"},
	{spec: "openssl:-password pass:"},
	{spec: "openssl:-k"},
	{spec: "openssl:-K"},
	{spec: "openssl ca:-key"},

	// GnuPG: --passphrase STRING is the any-program rule; --passphrase-fd N,
	// --passphrase-file FILE and --passphrase-repeat N say where or how
	// often (gpg(1)).
	{spec: "*:!--passphrase-fd"},
	{spec: "*:!--passphrase-repeat"},

	// curl: -u/--user USER:PASSWORD and -U/--proxy-user (without a colon
	// curl prompts; with nothing after it the user is an API key: -u
	// KEY:), -E/--cert FILE:PASSWORD, --pass and --proxy-pass PHRASE,
	// --oauth2-bearer TOKEN (curl --help, curl(1)).
	{spec: "curl:-u *:"}, {spec: "curl:-u= *:"}, {spec: "curl:--user *:"},
	{spec: "curl:-U *:"}, {spec: "curl:-U= *:"}, {spec: "curl:--proxy-user *:"},
	{spec: "curl:-E *:"}, {spec: "curl:--cert *:"}, {spec: "curl:--proxy-cert *:"},
	{spec: "curl:--pass"}, {spec: "curl:--proxy-pass"},
	{spec: "curl:--oauth2-bearer"},
	// git -c http.extraheader="Authorization: Bearer X": the header rule
	// redacts that argument's own text.

	// Azure CLI: az login -p/--password (a user's password or a service
	// principal's secret); argparse also reads -pVALUE.
	{spec: "az login:-p"}, {spec: "az login:-p="},

	// HashiCorp Vault: vault login TOKEN (the token method, the default);
	// with -method=userpass and the like the arguments are K=V settings
	// (developer.hashicorp.com/vault/docs/commands/login).
	{spec: "vault login:1", kv: true},

	// npm/yarn/pnpm config set NAME VALUE or NAME=VALUE
	// (//registry.example/:_authToken X); git config NAME VALUE.
	{spec: "npm config set:pair"}, {spec: "npm set:pair"},
	{spec: "yarn config set:pair"}, {spec: "pnpm config set:pair"},
	{spec: "git config:pair"},

	// gh auth login --with-token reads the token from stdin.
	{spec: "*:!--with-token"},

	// OpenLDAP clients: -w PASSWORD (bind password; -W prompts, -y FILE);
	// ldappasswd -s NEWPASSWORD and -a OLDPASSWORD (ldapsearch(1),
	// ldappasswd(1)).
	{spec: "ldapsearch:-w"}, {spec: "ldapadd:-w"}, {spec: "ldapmodify:-w"},
	{spec: "ldapdelete:-w"}, {spec: "ldapwhoami:-w"}, {spec: "ldapcompare:-w"},
	{spec: "ldapmodrdn:-w"}, {spec: "ldapexop:-w"},
	{spec: "ldappasswd:-w"}, {spec: "ldappasswd:-s"}, {spec: "ldappasswd:-a"},

	// zip and unzip -P PASSWORD (zip(1), unzip(1)); 7z -pPASSWORD, glued
	// (-p alone prompts: 7-Zip's -p switch); sqlcmd -P PASSWORD;
	// smbclient -U USER%PASSWORD; ssh-keygen -P OLD and -N NEW pass
	// phrases (ssh-keygen(1)); Java keytool and jarsigner -storepass,
	// -keypass and friends (keytool(1)).
	{spec: "zip:-P"}, {spec: "unzip:-P"}, {spec: "7z:-p="}, {spec: "7za:-p="},
	{spec: "ssh-keygen:-P"}, {spec: "ssh-keygen:-N"},
	{spec: "sqlcmd:-P"},
	{spec: "smbclient:-U *%"}, {spec: "smbclient:--user *%"},
	// (-storepass, -keypass and their src/dest forms are in
	// secretFlagWords: the any-program rule.)
	{spec: "keytool:-new"},
}

// argTakesValue lists, per program, options whose (non-secret) value is
// the next argument, so counting arguments skips it (htpasswd -b -C 10 FILE
// USER PASSWORD).
var argTakesValue = map[string][]string{
	"htpasswd": {"-C", "-r"},
	"vault":    {"-address", "-namespace", "-path", "-method", "-format", "-field", "-wrap-ttl", "-ca-cert", "-client-cert", "-client-key"},
	"git":      {"-C", "-c", "--file", "-f", "--blob", "--type", "--default"},
	"aws":      {"--profile", "--region", "--endpoint-url", "--output", "--query", "--cli-read-timeout", "--cli-connect-timeout", "--ca-bundle"},
	"npm":      {"--registry", "--location", "--userconfig", "--prefix", "-w", "--workspace"},
	"az":       {"-u", "--username", "-t", "--tenant", "--scope", "--allow-no-subscriptions", "--certificate", "--federated-token"},
	"docker":   {"-H", "--host", "--config", "-c", "--context", "-l", "--log-level", "-u", "--username"},
	"podman":   {"-u", "--username", "--authfile", "--cert-dir"},
	"helm":     {"-u", "--username", "--cert-file", "--key-file", "--ca-file", "--kube-context", "-n", "--namespace"},
}

// argRunners are programs that run another program given among their
// arguments: the first argument naming a table program starts its command
// line.
var argRunners = map[string]bool{
	"sudo": true, "doas": true, "env": true, "nice": true, "nohup": true, "time": true,
	"timeout": true, "stdbuf": true, "exec": true, "command": true, "xargs": true,
	"watch": true, "ionice": true, "chrt": true, "taskset": true, "setsid": true,
	"unbuffer": true, "flock": true, "strace": true, "ltrace": true, "ssh": true,
	"sshpass": true, "docker": true, "podman": true, "kubectl": true, "oc": true,
	"rac": true, "nsenter": true, "chroot": true, "runuser": true, "su": true,
}

// argShells read the argument after -c as a command line.
var argShells = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "ash": true,
	"mksh": true, "fish": true, "busybox": true,
}

// ArgvRules is the argv grammar's table: the built-in entries and the
// ones a configuration added. It is immutable and safe for concurrent use.
type ArgvRules struct {
	byProg map[string][]argEntry
	any    []argEntry
	// progs holds every program with entries, for finding one after a
	// runner.
	progs map[string]bool
}

var builtinArgvRules = sync.OnceValue(func() *ArgvRules {
	t, err := NewArgvRules(nil)
	if err != nil {
		panic(err) // the built-in table is tested
	}
	return t
})

// DefaultArgvRules returns the built-in table.
func DefaultArgvRules() *ArgvRules { return builtinArgvRules() }

// NewArgvRules returns the built-in table extended by extra entries in the
// redact.args syntax (ParseArgSpec). A bad entry is an error that quotes it.
func NewArgvRules(extra []string) (*ArgvRules, error) {
	t := &ArgvRules{byProg: map[string][]argEntry{}, progs: map[string]bool{}}
	for _, d := range builtinArgs {
		e, err := parseArgSpec(d.spec)
		if err != nil {
			return nil, fmt.Errorf("built-in entry %q: %w", d.spec, err)
		}
		e.kv = d.kv
		t.add(e)
	}
	for _, s := range extra {
		e, err := parseArgSpec(s)
		if err != nil {
			return nil, err
		}
		t.add(e)
	}
	return t, nil
}

func (t *ArgvRules) add(e argEntry) {
	if e.prog == "*" {
		t.any = append(t.any, e)
		return
	}
	t.byProg[e.prog] = append(t.byProg[e.prog], e)
	t.progs[e.prog] = true
}

// ParseArgSpec checks one entry of the redact.args setting:
//
//	COMMAND:SPEC
//
// COMMAND is a program's base name (or * for any program), then the words
// that must come first (docker login, aws configure set); a word starting
// with '-' is a flag that must be given instead (htpasswd -b; -nb needs -n
// and -b). SPEC is one of
//
//	-f, --flag      the flag's value: the next argument, or after --flag=
//	-f=, --flag=    only a value glued to the flag: -fVALUE, --flag=VALUE
//	                (mysql -p alone prompts)
//	-f PREFIX       only what follows PREFIX in the value (openssl -passout
//	                pass:); *C is everything after the first C (curl -u *:)
//	!--flag         the flag carries no secret and takes no value
//	N               the Nth argument (1-99) after COMMAND's words
//	pair            an argument naming a setting and the next one its value
//	                (or NAME=VALUE), secret when the name is secret-like
func ParseArgSpec(s string) error {
	_, err := parseArgSpec(s)
	return err
}

func parseArgSpec(s string) (argEntry, error) {
	e, err := parseArgEntry(s)
	if err != nil {
		return argEntry{}, fmt.Errorf("%q: %v (want COMMAND:SPEC, such as \"mysql:-p=\", \"sshpass:-p\", \"htpasswd -b:3\" or \"openssl:-passout pass:\")", s, err)
	}
	return e, nil
}

// parseArgEntry parses COMMAND:SPEC; its error says only what is wrong,
// parseArgSpec adds the entry and the form wanted.
func parseArgEntry(s string) (argEntry, error) {
	cmd, spec, ok := strings.Cut(s, ":")
	if !ok {
		return argEntry{}, errors.New("no ':' between the command and what to redact")
	}
	e, err := parseArgCommand(cmd)
	if err != nil {
		return argEntry{}, err
	}
	if err := e.parseTarget(strings.TrimSpace(spec)); err != nil {
		return argEntry{}, err
	}
	if e.kind == argValue || e.kind == argGlued || e.kind == argNoSecret {
		f := e.flag
		if len(f) < 2 || f[0] != '-' || f == "--" || strings.ContainsAny(f, "= \t") {
			return argEntry{}, fmt.Errorf("%q is not a flag", f)
		}
	}
	if e.prog == "*" && e.kind != argValue && e.kind != argNoSecret {
		return argEntry{}, errors.New("* (any program) takes a flag or !flag")
	}
	return e, nil
}

// parseArgCommand parses COMMAND: the program's name, then the words that
// must come first and the flags that must be given.
func parseArgCommand(cmd string) (argEntry, error) {
	fields := strings.Fields(cmd)
	if len(fields) == 0 {
		return argEntry{}, errors.New("no command before ':'")
	}
	var e argEntry
	e.prog = fields[0]
	if strings.HasPrefix(e.prog, "-") || strings.ContainsAny(e.prog, "/=") {
		return argEntry{}, fmt.Errorf("the command must start with a program's name, not %q", e.prog)
	}
	for _, w := range fields[1:] {
		if len(w) > 1 && w[0] == '-' {
			e.need = append(e.need, w)
		} else {
			e.words = append(e.words, w)
		}
	}
	if e.prog == "*" && (len(e.words) > 0 || len(e.need) > 0) {
		return argEntry{}, errors.New("* (any program) takes no words")
	}
	return e, nil
}

// parseTarget parses SPEC, what to redact, into e's kind and its flag,
// prefix or position.
func (e *argEntry) parseTarget(spec string) error {
	switch {
	case spec == "":
		return errors.New("nothing after ':'")
	case spec == "pair":
		e.kind = argPair
	case spec[0] >= '0' && spec[0] <= '9':
		n, err := strconv.Atoi(spec)
		if err != nil || n < 1 || n > 99 {
			return errors.New("an argument number is 1 to 99")
		}
		e.kind, e.pos = argPos, n
	case spec[0] == '!':
		e.kind, e.flag = argNoSecret, spec[1:]
	case spec[0] == '-':
		e.kind = argValue
		flag, prefix, hasPrefix := strings.Cut(spec, " ")
		if hasPrefix {
			e.prefix = strings.TrimSpace(prefix)
			if e.prefix == "" || e.prefix == "*" {
				return fmt.Errorf("empty prefix after %q", flag)
			}
		}
		if strings.HasSuffix(flag, "=") {
			e.kind, flag = argGlued, flag[:len(flag)-1]
		}
		e.flag = flag
	default:
		return errors.New("what to redact is a flag (-p, --password=, -passout pass:), an argument number or pair")
	}
	return nil
}

// argHit is a secret found by the grammar: bytes [start, end) of the word's
// text.
type argHit struct {
	word       int
	start, end int
	positional bool // an argument of its own (secret-arg), not a flag's value
}

// Argv returns argv with every secret the grammar finds replaced by a
// marker ([REDACTED:secret-flag] for a flag's value, [REDACTED:secret-arg]
// for an argument): the flag itself and a value's non-secret prefix stay
// (--password [REDACTED:secret-flag], -p[REDACTED:secret-flag],
// pass:[REDACTED:secret-flag], user:[REDACTED:secret-flag]). It returns argv
// itself when nothing is found. The elements' own text is the redactor's
// business (Redactor.String), after this.
func (t *ArgvRules) Argv(argv []string) []string {
	if len(argv) == 0 {
		return argv
	}
	words := make([][]byte, len(argv))
	for i, a := range argv {
		words[i] = []byte(a)
	}
	hits := t.scan(words, 0, nil, 0)
	if len(hits) == 0 {
		return argv
	}
	var out []string
	for i := range argv {
		var hs []argHit
		for _, h := range hits {
			if h.word == i && !touchesMarker(words[i], h) {
				hs = append(hs, h)
			}
		}
		if len(hs) > 0 {
			if out == nil {
				out = make([]string, len(argv))
				copy(out, argv)
			}
			out[i] = string(replaceHits(words[i], hs))
		}
	}
	if out == nil {
		return argv
	}
	return out
}

// touchesMarker reports whether h overlaps a marker already in w, so that
// redacting the result again changes nothing (as dropMarkerOverlaps does
// for output).
func touchesMarker(w []byte, h argHit) bool {
	for i := 0; ; {
		at := bytes.Index(w[i:], markerPrefix)
		if at < 0 {
			return false
		}
		ms := i + at
		k := ms + len(markerPrefix)
		for k < len(w) && k-ms < maxMarkerID+len(markerPrefix) && markerIDSet[w[k]] {
			k++
		}
		i = k
		if k < len(w) && w[k] == ']' && h.start <= k && h.end > ms {
			return true
		}
	}
}

// Line redacts a command line kept as one string (a tombstone's command,
// a shell's -c script), read with shell word splitting.
func (t *ArgvRules) Line(s string) string {
	b := []byte(s)
	hits := t.scanLine(b, nil, 0)
	kept := hits[:0]
	for _, h := range hits {
		if !touchesMarker(b, h) {
			kept = append(kept, h)
		}
	}
	if len(kept) == 0 {
		return s
	}
	return string(replaceHits(b, kept))
}

// replaceHits replaces the hits' ranges of b by their markers; hits may
// overlap and come in any order.
func replaceHits(b []byte, hits []argHit) []byte {
	sortHits(hits)
	var out []byte
	emit := 0
	for i := 0; i < len(hits); i++ {
		h := hits[i]
		end := h.end
		for i+1 < len(hits) && hits[i+1].start < end {
			i++
			end = max(end, hits[i].end)
		}
		if h.start < emit {
			h.start = emit
		}
		out = append(out, b[emit:h.start]...)
		if h.positional {
			out = append(out, "[REDACTED:"+secretArgID+"]"...)
		} else {
			out = append(out, "[REDACTED:"+secretFlagID+"]"...)
		}
		emit = end
	}
	return append(out, b[emit:]...)
}

func sortHits(h []argHit) {
	for i := 1; i < len(h); i++ {
		for j := i; j > 0 && h[j].start < h[j-1].start; j-- {
			h[j], h[j-1] = h[j-1], h[j]
		}
	}
}

// maxArgDepth bounds how many programs deep a command line is followed
// (sudo timeout 5 env X=1 mysql ...; sh -c "sh -c '...'").
const maxArgDepth = 8

// scan reads words[from:] as a program and its arguments and appends the
// secrets it finds.
func (t *ArgvRules) scan(words [][]byte, from int, hits []argHit, depth int) []argHit {
	if from >= len(words) || depth > maxArgDepth {
		return hits
	}
	prog := argBase(words[from])
	st := argState{t: t, words: words, prog: prog, entries: t.byProg[string(prog)], runner: argRunners[string(prog)]}
	st.collectFlags(from + 1)
	afterDD := false
	for i := from + 1; i < len(words); i++ {
		w := words[i]
		if !afterDD && string(w) == "--" {
			afterDD = true
			if i+1 < len(words) && t.startsCommand(words[i+1]) {
				return t.scan(words, i+1, hits, depth+1)
			}
			continue
		}
		flag := len(w) > 1 && w[0] == '-'
		if st.runner && !flag && t.startsCommand(w) {
			return t.scan(words, i, hits, depth+1)
		}
		switch {
		case flag && !afterDD && argShells[string(prog)] && isShellC(w) && i+1 < len(words):
			if !bytes.ContainsAny(words[i+1], " \t") && t.startsCommand(words[i+1]) {
				// the script's words as words of their own: a command
				// line joined without quotes (sh -c mysql -pX db)
				return t.scan(words, i+1, hits, depth+1)
			}
			for _, h := range t.scanLine(words[i+1], nil, depth+1) {
				h.word = i + 1
				hits = append(hits, h)
			}
			i++
		case flag && !afterDD:
			var skip int
			hits, skip = st.flag(i, hits)
			i += skip
		default:
			// An argument; after "--" a flag is one too, but the
			// any-program rule still reads it (npm run x -- --token X).
			st.positionals = append(st.positionals, i)
			hits = st.positional(len(st.positionals)-1, hits)
			if flag {
				var skip int
				hits, skip = st.generic(i, hits)
				i += skip
			}
		}
	}
	return hits
}

func isShellC(w []byte) bool {
	if len(w) < 2 || w[0] != '-' || w[1] == '-' {
		return false
	}
	return bytes.IndexByte(w[1:], 'c') >= 0
}

// startsCommand: w names a program the grammar follows into: one with
// table entries, a runner or a shell.
func (t *ArgvRules) startsCommand(w []byte) bool {
	b := argBase(w)
	return len(b) > 0 && (t.progs[string(b)] || argRunners[string(b)] || argShells[string(b)])
}

// argBase is a word's program name: what follows its last '/'.
func argBase(w []byte) []byte {
	if i := bytes.LastIndexByte(w, '/'); i >= 0 {
		return w[i+1:]
	}
	return w
}

type argState struct {
	t           *ArgvRules
	words       [][]byte
	prog        []byte
	entries     []argEntry
	runner      bool
	positionals []int // indexes of the arguments seen so far
	letters     [128]bool
	longs       [][]byte
}

// collectFlags notes the flags given anywhere after the program, for the
// entries that need one (htpasswd -b).
func (st *argState) collectFlags(from int) {
	for _, w := range st.words[from:] {
		if string(w) == "--" {
			return
		}
		switch {
		case len(w) > 2 && w[0] == '-' && w[1] == '-':
			name, _, _ := bytes.Cut(w, []byte("="))
			st.longs = append(st.longs, name)
		case len(w) > 1 && w[0] == '-':
			for _, c := range w[1:] {
				if c < 128 {
					st.letters[c] = true
				}
			}
		}
	}
}

func (st *argState) needsMet(e *argEntry) bool {
	for _, n := range e.need {
		if strings.HasPrefix(n, "--") {
			found := false
			for _, l := range st.longs {
				if string(l) == n {
					found = true
					break
				}
			}
			if !found {
				return false
			}
			continue
		}
		for _, c := range []byte(n[1:]) {
			if c >= 128 || !st.letters[c] {
				return false
			}
		}
	}
	return true
}

// wordsEnd returns how many of the arguments seen so far the entry's
// words take: they must appear among them in order (global options and
// their values may come between: docker -H host login). -1: not all yet.
func (st *argState) wordsEnd(e *argEntry, upto int) int {
	k := 0
	for i := 0; i < upto && k < len(e.words); i++ {
		if string(st.words[st.positionals[i]]) == e.words[k] {
			k++
			if k == len(e.words) {
				return i + 1
			}
		}
	}
	if len(e.words) == 0 {
		return 0
	}
	return -1
}

func (st *argState) active(e *argEntry) bool {
	return st.wordsEnd(e, len(st.positionals)) >= 0 && st.needsMet(e)
}

// flag handles the option at i and returns how many following words it
// took as its value.
func (st *argState) flag(i int, hits []argHit) ([]argHit, int) {
	w := st.words[i]
	for _, set := range [2][]argEntry{st.entries, st.t.any} {
		for k := range set {
			e := &set[k]
			if e.kind == argPos || e.kind == argPair || !st.active(e) {
				continue
			}
			f := e.flag
			if !bytes.HasPrefix(w, []byte(f)) {
				continue
			}
			rest := w[len(f):]
			switch e.kind {
			case argNoSecret:
				if len(rest) == 0 || rest[0] == '=' {
					return hits, 0
				}
			case argValue:
				switch {
				case len(rest) == 0:
					if i+1 < len(st.words) {
						hits = appendValueHit(hits, i+1, st.words[i+1], 0, e.prefix)
						return hits, 1
					}
					return hits, 0
				case rest[0] == '=' && (len(f) > 2 || e.prefix == ""):
					hits = appendValueHit(hits, i, w, len(f)+1, e.prefix)
					return hits, 0
				}
			case argGlued:
				switch {
				case len(rest) == 0:
					return hits, 0 // prompts: no value
				case len(f) == 2 && f[1] != '-':
					hits = appendValueHit(hits, i, w, len(f), e.prefix)
					return hits, 0
				case rest[0] == '=':
					hits = appendValueHit(hits, i, w, len(f)+1, e.prefix)
					return hits, 0
				}
			}
		}
	}
	hits, skip := st.generic(i, hits)
	if skip > 0 {
		return hits, skip
	}
	for _, v := range argTakesValue[string(st.prog)] {
		if string(w) == v && i+1 < len(st.words) {
			return hits, 1
		}
	}
	return hits, 0
}

// generic is the any-program rule for the option at i.
func (st *argState) generic(i int, hits []argHit) ([]argHit, int) {
	w := st.words[i]
	name, val, eq := bytes.Cut(w, []byte("="))
	dashes := 1
	if len(name) > 1 && name[1] == '-' {
		dashes = 2
	}
	bare := name[dashes:]
	if len(bare) < 2 || !secretFlagName(bare) {
		return hits, 0
	}
	if eq {
		if len(val) > 0 {
			hits = append(hits, argHit{word: i, start: len(name) + 1, end: len(w)})
		}
		return hits, 0
	}
	if i+1 >= len(st.words) {
		return hits, 0
	}
	next := st.words[i+1]
	if len(next) >= 2 && next[0] == '-' && next[1] == '-' {
		return hits, 0 // another option: a secret starting with -- is far less likely
	}
	if len(next) > 0 && string(next) != "-" {
		hits = append(hits, argHit{word: i + 1, start: 0, end: len(next)})
	}
	return hits, 1
}

// positional checks the table's argument entries when argument k arrives.
func (st *argState) positional(k int, hits []argHit) []argHit {
	wi := st.positionals[k]
	w := st.words[wi]
	for idx := range st.entries {
		e := &st.entries[idx]
		if (e.kind != argPos && e.kind != argPair) || !st.needsMet(e) {
			continue
		}
		end := st.wordsEnd(e, k) // the words come before this argument
		if end < 0 {
			continue
		}
		n := k - end + 1 // this argument's number after the words
		switch e.kind {
		case argPos:
			if n != e.pos || len(w) == 0 || string(w) == "-" {
				continue
			}
			if e.kv && bytes.IndexByte(w, '=') > 0 {
				continue
			}
			hits = append(hits, argHit{word: wi, start: 0, end: len(w), positional: true})
		case argPair:
			switch n {
			case 1:
				if name, val, ok := bytes.Cut(w, []byte("=")); ok && len(val) > 0 && settingIsSecret(name) {
					hits = append(hits, argHit{word: wi, start: len(name) + 1, end: len(w), positional: true})
				}
			case 2:
				name := st.words[st.positionals[k-1]]
				if bytes.IndexByte(name, '=') < 0 && len(w) > 0 && settingIsSecret(name) {
					hits = append(hits, argHit{word: wi, start: 0, end: len(w), positional: true})
				}
			}
		}
	}
	return hits
}

// settingIsSecret classifies a setting's name (aws_secret_access_key,
// default.aws_session_token, //registry.example/:_authToken).
func settingIsSecret(name []byte) bool {
	return len(name) > 0 && IsSecretName(string(name))
}

// appendValueHit adds the secret of a flag's value: word w from off, or
// with a prefix only what follows it.
func appendValueHit(hits []argHit, wi int, w []byte, off int, prefix string) []argHit {
	v := w[off:]
	switch {
	case prefix == "":
	case prefix[0] == '*':
		at := bytes.Index(v, []byte(prefix[1:]))
		if at < 0 {
			return hits // curl -u user prompts for the password
		}
		if at+len(prefix)-1 == len(v) {
			if at == 0 {
				return hits
			}
			// nothing after the separator: the user is the secret (curl -u
			// KEY: for an API key)
			return append(hits, argHit{word: wi, start: off, end: off + at})
		}
		off += at + len(prefix) - 1
	case bytes.HasPrefix(v, []byte(prefix)):
		off += len(prefix)
	default:
		return hits // openssl -passout env:VAR names where the secret is
	}
	if off >= len(w) {
		return hits
	}
	return append(hits, argHit{word: wi, start: off, end: len(w)})
}

// secretFlagWords are flag names that carry a secret but are one compound
// word IsSecretName does not split: keytool's and jarsigner's -storepass
// and -keypass (keytool(1)), redis-server's --requirepass and
// --masterauth (redis.conf).
var secretFlagWords = map[string]bool{
	"storepass": true, "keypass": true, "srcstorepass": true, "deststorepass": true,
	"srckeypass": true, "destkeypass": true, "requirepass": true, "masterauth": true,
}

// secretFlagName is IsSecretName for a flag's name (without its dashes),
// less the names that describe how a secret is given rather than carry it:
// a first word such as no, ask, prompt, with, show, use, read (--no-password,
// --ask-pass, --with-token, --show-token) or a last word such as stdin, fd,
// prompt, only, repeat (--password-stdin, --passphrase-fd, -token-only).
// IsSecretName already rejects --password-file, --token-ttl, --secret-id.
func secretFlagName(name []byte) bool {
	if len(name) > 128 {
		return false
	}
	if secretFlagWords[string(name)] {
		return true
	}
	if !IsSecretName(string(name)) {
		return false
	}
	var buf [128]byte
	low := buf[:copy(buf[:], name)]
	var segBuf [24][2]int
	segs := nameSegments(low, segBuf[:0])
	for i := range low {
		low[i] = foldByte(low[i])
	}
	if len(segs) > 1 {
		switch string(low[segs[0][0]:segs[0][1]]) {
		case "no", "ask", "prompt", "with", "show", "print", "skip", "use", "read",
			"require", "requires", "allow", "enable", "disable", "save", "store", "keep", "from":
			return false
		}
		switch string(low[segs[len(segs)-1][0]:segs[len(segs)-1][1]]) {
		case "stdin", "fd", "prompt", "only", "repeat", "stdout", "interactive", "required", "optional":
			return false
		}
	}
	return true
}
