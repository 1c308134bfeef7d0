package explain

import (
	"crypto/sha256"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The fifth held-out set: real runs of tools that no other set (the
// tuning corpus, the first, third and fourth held-out sets) holds:
// compilers and interpreters of other languages (yasm, Hugs, Mono's mcs
// and mono, clisp, LuaJIT, bc, dune), shells' syntax checks (zsh, fish),
// server and system configuration checks (redis-server, varnishd,
// rsyslogd, logrotate, dhcpd, iptables-restore, squid, chronyd,
// systemd-analyze, ssh -G), network clients (wget, socat, nc), document
// tools (groff, chktex, lacheck, makeinfo, hunspell, xmlwf), linters and
// formatters (pyflakes, pycodestyle, pydocstyle, bandit, isort, yapf,
// splint, flawfinder, uncrustify, sqlfluff), package tools (apt-get,
// pip, luarocks), a shell test runner (shunit2) and Node tools from the
// registry (stylus, uglify-js, qunit, standard, c8, lockfile-lint,
// jsonlint, csslint, LiveScript, babel, madge, ejs-lint, lesshint,
// dockerfilelint, biome, write-good). They were recorded live and marked
// by hand, before explain was run on them, and pinned before any rule was
// changed on their account; the ranking is never tuned on them. Debian 12
// packages at the versions of heldout5.txt's commit; the Node tools
// installed with exact versions under /opt/h5npm (put its
// node_modules/.bin on PATH for make corpus): stylus 0.64.0, uglify-js
// 3.19.3, qunit 3.0.0, standard 17.1.2, c8 12.0.0, lockfile-lint 5.0.1,
// jsonlint 1.6.3, csslint 1.0.5, livescript 1.6.0, @babel/cli 8.1.0,
// @babel/core 8.1.2, madge 8.0.0, ejs-lint 2.0.1, lesshint 6.3.7,
// dockerfilelint 1.8.0, @biomejs/biome 2.6.8, write-good 1.0.8.
const heldoutFifthDir = "testdata/heldout5"

// heldoutFifthPin is the SHA-256 of heldout5.txt, pinned when the 113
// runs of 58 tools (98 failures, 53 of them over 20 lines; 15 passing
// runs) were recorded and marked, before explain was run on them and
// before any rule was changed on their account. Its score then (make
// corpus, with the rules of the fourth set's "after" row): explain 81/98
// failures (82%) two pipes, 79/98 (80%) combined, 15/15 passes, mean 6.4
// lines; head -10 + tail -10 71/98 (72%), tail -10 60/98, grep|head -4
// 39/98; over 20 lines explain 37/53 against head+tail 26/53.
const heldoutFifthPin = "24277b4636c3d7d46ba9ac50161ba810f1cdae9216a1ac3fc1e6a5ad08dedab9"

const heldoutFifthList = heldoutFifthDir + "/heldout5.txt"

// TestHeldoutFifthPinned fails when a case of the fifth held-out set,
// its marked line or its kept output changes (-heldout.pin rewrites the
// list).
func TestHeldoutFifthPinned(t *testing.T) {
	want := pinLines(t, heldoutFifthDir, heldoutFifthCases())
	if *heldoutRepin {
		require.NoError(t, os.WriteFile(heldoutFifthList, []byte(want), 0o644))
		t.Logf("pinned: const heldoutFifthPin = %q", fmt.Sprintf("%x", sha256.Sum256([]byte(want))))
		return
	}
	got, err := os.ReadFile(heldoutFifthList)
	require.NoError(t, err)
	require.Equal(t, heldoutFifthPin, fmt.Sprintf("%x", sha256.Sum256(got)), "%s changed after it was pinned", heldoutFifthList)
	require.Equal(t, string(got), want, "the held-out cases or their kept runs differ from %s", heldoutFifthList)
}

// quiet is a CI step that fails when a checker that always exits 0 wrote
// anything: its report is shown, then the step's own verdict.
func quiet(cmd string) string {
	return "out=$(" + cmd + " 2>&1); printf '%s\\n' \"$out\"; if [ -n \"$out\" ]; then echo 'check failed: the checker reported problems'; exit 1; fi"
}

func heldoutFifthCases() []corpusCase {
	nm := [][]string{{"sh", "-c", "ln -s \"$(dirname \"$(dirname \"$(command -v qunit)\")\")\" node_modules"}}
	pyMod := func(n int) string {
		var b strings.Builder
		b.WriteString("\"\"\"Prices of the shop.\"\"\"\n\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "\ndef rule_%d(price):\n    \"\"\"Apply rule %d.\"\"\"\n    return price + %d\n\n", i, i, i)
		}
		return b.String()
	}
	shunit := func(body string) map[string]string {
		return map[string]string{"test_cart.sh": "#!/bin/sh\n" + body + "\n. shunit2\n"}
	}
	return []corpusCase{
		// assemblers, compilers and interpreters
		{name: "yasm: an undefined symbol", tools: []string{"yasm"},
			files: map[string]string{"exit.asm": "section .text\nglobal _start\n_start:\n    mov rax, 60\n    mov rdi, exit_cod\n    syscall\n"},
			argv:  []string{"yasm", "-f", "elf64", "exit.asm"}, want: "undefined symbol `exit_cod'"},
		{name: "ci log: yasm an instruction that is not known after thirty setup lines", tools: []string{"yasm"},
			files: map[string]string{"loop.asm": "section .text\nglobal _start\n_start:\n    mov rcx, 10\nagain:\n    decr rcx\n    jnz again\n    ret\n"},
			argv:  noisy(30, "yasm -f elf64 loop.asm"), want: "loop.asm:6: error: instruction expected after label"},
		{name: "runhugs: a type error", tools: []string{"runhugs"},
			files: map[string]string{"Total.hs": "main :: IO ()\nmain = do\n  putStrLn \"summing\"\n  print (length \"abc\" + \"1\")\n"},
			argv:  []string{"runhugs", "Total.hs"}, want: "Type error in application"},
		{name: "ci log: runhugs an undefined variable between setup and teardown", tools: []string{"runhugs"},
			files: map[string]string{"Cart.hs": "total :: [Int] -> Int\ntotal = sum\nmain :: IO ()\nmain = print (totl [1, 2, 3])\n"},
			argv:  noisyAround(25, 25, "runhugs Cart.hs"), want: "Undefined variable \"totl\""},
		{name: "pass: runhugs a program that prints its result", tools: []string{"runhugs"}, pass: true,
			files: map[string]string{"Ok.hs": "main :: IO ()\nmain = do\n  putStrLn \"errors: 0\"\n  putStrLn \"totals computed\"\n"},
			argv:  []string{"runhugs", "Ok.hs"}, want: "totals computed"},
		{name: "mcs: a name that does not exist", tools: []string{"mcs"},
			files: map[string]string{"Bill.cs": "using System;\nclass Bill {\n    static void Main() {\n        int total = 3;\n        Console.WriteLine(totl);\n    }\n}\n"},
			argv:  []string{"mcs", "Bill.cs"}, want: "The name `totl' does not exist"},
		{name: "ci log: mcs a missing semicolon after forty setup lines", tools: []string{"mcs"},
			files: map[string]string{"Port.cs": "class Port {\n    static void Main() {\n        int port = 8080\n        System.Console.WriteLine(port);\n    }\n}\n"},
			argv:  noisy(40, "mcs Port.cs"), want: "error CS1525"},
		{name: "ci log: mono an unhandled exception between setup and teardown", tools: []string{"mcs", "mono"},
			files: map[string]string{"Cfg.cs": "using System;\nusing System.Collections.Generic;\nclass Cfg {\n    static void Main() {\n        var cfg = new Dictionary<string, string>();\n        cfg[\"host\"] = \"db\";\n        Console.WriteLine(\"reading config\");\n        Console.WriteLine(cfg[\"port\"]);\n    }\n}\n"},
			argv:  noisyAround(25, 25, "mcs Cfg.cs && mono Cfg.exe"), want: "The given key 'port' was not present"},
		{name: "clisp: an undefined function", tools: []string{"clisp"},
			files: map[string]string{"report.lisp": "(defun total (items) (reduce #'+ items))\n(format t \"building report~%\")\n(print (totl '(1 2 3)))\n"},
			argv:  []string{"clisp", "report.lisp"}, want: "undefined function TOTL"},
		{name: "ci log: clisp a division by zero after thirty setup lines", tools: []string{"clisp"},
			files: map[string]string{"avg.lisp": "(defun avg (items) (/ (reduce #'+ items) (length items)))\n(format t \"averaging~%\")\n(print (avg '()))\n"},
			argv:  noisy(30, "clisp avg.lisp"), want: "division by zero"},
		{name: "luajit: indexing a nil value", tools: []string{"luajit"},
			files: map[string]string{"cfg.lua": "local cfg = {server = {host = 'db'}}\nprint('reading config')\nprint(cfg.database.port)\n"},
			argv:  []string{"luajit", "cfg.lua"}, want: "attempt to index field 'database'"},
		{name: "ci log: luajit a syntax error between setup and teardown", tools: []string{"luajit"},
			files: map[string]string{"cart.lua": "local function total(items)\n  local t = 0\n  for _, v in ipairs(items) do\n    t = t + v\n  return t\nend\nprint(total({1, 2}))\n"},
			argv:  noisyAround(25, 25, "luajit cart.lua"), want: "'end' expected (to close 'function' at line 1)"},
		{name: "pass: luajit a script that prints its summary", tools: []string{"luajit"}, pass: true,
			files: map[string]string{"ok.lua": "for i = 1, 30 do print(('rule %d applied'):format(i)) end\nprint('failed rules: 0')\nprint('rules applied')\n"},
			argv:  []string{"luajit", "ok.lua"}, want: "rules applied"},
		{name: "bc: a division by zero", tools: []string{"bc"},
			files: map[string]string{"rate.bc": "scale = 2\ntotal = 120\ncount = 0\ntotal / count\n"},
			argv:  []string{"sh", "-c", "bc -q rate.bc < /dev/null 2>&1 | tee bc.out; ! grep -q . bc.out || ! grep -qi error bc.out"}, want: "Divide by zero"},
		{name: "ci log: bc a syntax error after thirty setup lines", tools: []string{"bc"},
			files: map[string]string{"tax.bc": "scale = 2\nrate = 0.2\nprice = 100\nprice * (1 + rate\n"},
			argv:  noisy(30, "bc -q tax.bc < /dev/null 2> bc.err; cat bc.err; test ! -s bc.err"), want: "syntax error"},
		{name: "dune build: a type error", tools: []string{"dune"},
			files: map[string]string{"dune-project": "(lang dune 2.9)\n", "bin/dune": "(executable (name main))\n", "bin/main.ml": "let port : int = \"8080\"\nlet () = print_int port\n"},
			argv:  []string{"dune", "build", "--display", "short", "--root", "."}, want: "This expression has type string"},
		{name: "ci log: dune build an unbound value between setup and teardown", tools: []string{"dune"},
			files: map[string]string{"dune-project": "(lang dune 2.9)\n", "bin/dune": "(executable (name main))\n", "bin/main.ml": "let total items = List.fold_left ( + ) 0 items\nlet () = print_int (totl [1; 2; 3])\n"},
			argv:  noisyAround(25, 25, "dune build --root ."), want: "Unbound value totl"},
		// shells
		{name: "zsh -n: a missing fi", tools: []string{"zsh"},
			files: map[string]string{"deploy.zsh": "if [[ -n $TARGET ]]; then\n  print deploying\nelse\n  print no target\n"},
			argv:  []string{"zsh", "-n", "deploy.zsh"}, want: "deploy.zsh:5: parse error"},
		{name: "ci log: zsh a command not found between setup and teardown", tools: []string{"zsh"},
			files: map[string]string{"release.zsh": "set -e\nprint 'tagging release'\nrelase_notes --since v1.2\nprint done\n"},
			argv:  noisyAround(25, 25, "zsh release.zsh"), want: "command not found: relase_notes"},
		{name: "fish -n: an end that is missing", tools: []string{"fish"},
			files: map[string]string{"build.fish": "for f in src/*.c\n    echo compiling $f\n"},
			argv:  []string{"fish", "--no-config", "-n", "build.fish"}, want: "Missing end"},
		{name: "ci log: fish an unknown command after forty setup lines", tools: []string{"fish"},
			files: map[string]string{"ship.fish": "echo packaging\npackge_assets dist\n"},
			argv:  noisy(40, "fish --no-config ship.fish"), want: "Unknown command: packge_assets"},
		// server and system configuration
		{name: "redis-server: a directive that is not known", tools: []string{"redis-server"},
			files: map[string]string{"redis.conf": "port 6390\nbind 127.0.0.1\nmaxmemory-polcy allkeys-lru\n"},
			argv:  []string{"redis-server", "redis.conf", "--test-memory", "0"}, want: ">>> 'maxmemory-polcy allkeys-lru'"},
		{name: "ci log: redis-server a bad value between setup and teardown", tools: []string{"redis-server"},
			files: map[string]string{"redis.conf": "port 6391\nbind 127.0.0.1\nappendonly maybe\n"},
			argv:  noisyAround(25, 25, "redis-server redis.conf"), want: "argument must be 'yes' or 'no'"},
		{name: "varnishd -C: a VCL syntax error", tools: []string{"varnishd"},
			files: map[string]string{"default.vcl": "vcl 4.1;\nbackend default {\n    .host = \"127.0.0.1\";\n    .port = \"8080\"\n}\n"},
			argv:  []string{"sh", "-c", "varnishd -j none -C -n \"$PWD/vn\" -f \"$PWD/default.vcl\""}, want: "Expected ';' got '}'"},
		{name: "ci log: varnishd -C a backend that is not defined after thirty setup lines", tools: []string{"varnishd"},
			files: map[string]string{"site.vcl": "vcl 4.1;\nbackend web { .host = \"127.0.0.1\"; .port = \"8080\"; }\nsub vcl_recv {\n    set req.backend_hint = api;\n}\n"},
			argv:  noisy(30, "varnishd -j none -C -n \"$PWD/vn\" -f \"$PWD/site.vcl\""), want: "Undefined backend api"},
		{name: "pass: varnishd -C of a valid VCL", tools: []string{"varnishd"}, pass: true,
			files: map[string]string{"ok.vcl": "vcl 4.1;\nbackend default { .host = \"127.0.0.1\"; .port = \"8080\"; }\n"},
			argv:  []string{"sh", "-c", "varnishd -j none -C -n \"$PWD/vn\" -f \"$PWD/ok.vcl\" > vcl.c 2>&1 && echo \"VCL compiled: $(wc -l < vcl.c) lines of C\""}, want: "VCL compiled"},
		{name: "rsyslogd -N1: a config error", tools: []string{"rsyslogd"},
			files: map[string]string{"rsyslog.conf": "module(load=\"imuxsock\")\n*.* action(type=\"omfile\" fil=\"/var/log/all.log\")\n"},
			argv:  []string{"rsyslogd", "-N1", "-f", "rsyslog.conf"}, want: "either the \"file\" or \"dynafile\" parameter must be given"},
		{name: "ci log: rsyslogd -N1 a module that does not exist between setup and teardown", tools: []string{"rsyslogd"},
			files: map[string]string{"rsyslog.conf": "module(load=\"imtcpp\")\n"},
			argv:  noisyAround(25, 25, "rsyslogd -N1 -f rsyslog.conf"), want: "imtcpp"},
		{name: "logrotate -d: an unknown option", tools: []string{"logrotate"},
			files: map[string]string{"app.conf": "/tmp/app/*.log {\n    daily\n    rotate 7\n    compresss\n}\n"},
			argv:  []string{"logrotate", "-d", "-s", "state", "app.conf"}, want: "compresss"},
		{name: "ci log: logrotate -d a bad rotation count after forty setup lines", tools: []string{"logrotate"},
			files: map[string]string{"web.conf": "/tmp/web/*.log {\n    weekly\n    rotate four\n}\n"},
			argv:  noisy(40, "logrotate -d -s state web.conf"), want: "bad rotation count 'four'"},
		{name: "dhcpd -t: a missing semicolon", tools: []string{"dhcpd"},
			files: map[string]string{"dhcpd.conf": "default-lease-time 600;\nsubnet 10.0.0.0 netmask 255.255.255.0 {\n  range 10.0.0.10 10.0.0.50\n  option routers 10.0.0.1;\n}\n"},
			argv:  []string{"dhcpd", "-t", "-cf", "dhcpd.conf"}, want: "dhcpd.conf line 4"},
		{name: "ci log: dhcpd -t an address that is not one between setup and teardown", tools: []string{"dhcpd"},
			files: map[string]string{"dhcpd.conf": "subnet 10.0.0.0 netmask 255.255.255.0 {\n  option routers 10.0.0.300;\n}\n"},
			argv:  noisyAround(25, 25, "dhcpd -t -cf dhcpd.conf"), want: "dhcpd.conf line 2"},
		{name: "iptables-restore --test: an unknown option", tools: []string{"iptables-restore"},
			files: map[string]string{"rules.v4": "*filter\n:INPUT ACCEPT [0:0]\n-A INPUT -p tcp --dportt 22 -j ACCEPT\nCOMMIT\n"},
			argv:  []string{"iptables-restore", "--test", "rules.v4"}, want: "unknown option \"--dportt\""},
		{name: "ci log: iptables-restore a missing COMMIT after thirty setup lines", tools: []string{"iptables-restore"},
			files: map[string]string{"rules.v4": "*filter\n:INPUT ACCEPT [0:0]\n-A INPUT -i lo -j ACCEPT\n"},
			argv:  noisy(30, "iptables-restore --test rules.v4"), want: "COMMIT expected at line 4"},
		{name: "squid -k parse: a directive that is not known", tools: []string{"squid"},
			files: map[string]string{"squid.conf": "http_port 3199\ncache_dir ufs /tmp/squid 100 16 256\nhttp_acess allow all\n"},
			argv:  []string{"squid", "-k", "parse", "-f", "squid.conf"}, want: "unrecognized: 'http_acess'"},
		{name: "ci log: squid -k parse an acl that is not defined between setup and teardown", tools: []string{"squid"},
			files: map[string]string{"squid.conf": "http_port 3199\nhttp_access allow officenet\n"},
			argv:  noisyAround(25, 25, "squid -k parse -f squid.conf"), want: "ACL not found: officenet"},
		{name: "chronyd -p: a directive that is not known", tools: []string{"chronyd"},
			files: map[string]string{"chrony.conf": "pool 2.debian.pool.ntp.org iburst\nmakestepp 1 3\n"},
			argv:  []string{"chronyd", "-p", "-f", "chrony.conf"}, want: "Invalid directive at line 2"},
		{name: "systemd-analyze verify: an unknown key and a missing binary", tools: []string{"systemd-analyze"},
			files: map[string]string{"shop.service": "[Unit]\nDescription=Shop\n\n[Service]\nExecStart=/opt/shop/bin/shopd --port 8080\nRestartt=always\n\n[Install]\nWantedBy=multi-user.target\n"},
			argv:  []string{"systemd-analyze", "verify", "./shop.service"}, want: "/opt/shop/bin/shopd"},
		{name: "ci log: systemd-analyze verify a unit with no ExecStart after forty setup lines", tools: []string{"systemd-analyze"},
			files: map[string]string{"worker.service": "[Unit]\nDescription=Worker\n\n[Service]\nType=simple\nUser=nobody\n"},
			argv:  noisy(40, "systemd-analyze verify ./worker.service"), want: "no ExecStart"},
		{name: "ssh -G: a bad configuration option", tools: []string{"ssh"},
			files: map[string]string{"ssh_config": "Host deploy\n  HostName 10.0.0.5\n  IdentityFil ~/.ssh/deploy\n"},
			argv:  []string{"ssh", "-G", "-F", "ssh_config", "deploy"}, want: "Bad configuration option: identityfil"},
		{name: "ci log: ssh -G a bad value between setup and teardown", tools: []string{"ssh"},
			files: map[string]string{"ssh_config": "Host build\n  HostName 10.0.0.6\n  Port eighty\n"},
			argv:  noisyAround(25, 25, "ssh -G -F ssh_config build > /dev/null"), want: "Bad port 'eighty'"},
		// network clients
		{name: "wget: a connection refused", tools: []string{"wget"},
			argv: []string{"wget", "--tries=1", "http://127.0.0.1:9/artifacts/shop.tar.gz"}, want: "Connection refused"},
		{name: "ci log: wget a 404 from a local server between setup and teardown", tools: []string{"wget", "python3"},
			files: map[string]string{"www/index.html": "ok\n"},
			argv:  noisyAround(25, 25, "python3 -u -m http.server 0 --bind 127.0.0.1 --directory www > srv.log 2>&1 & pid=$!; port=; for i in $(seq 1 200); do port=$(sed -n 's/.*port \\([0-9]*\\).*/\\1/p' srv.log); [ -n \"$port\" ] && break; sleep 0.05; done; wget --tries=1 \"http://127.0.0.1:$port/releases/shop-1.2.tar.gz\"; rc=$?; kill $pid; exit $rc"), want: "ERROR 404: File not found"},
		{name: "socat: a connection refused", tools: []string{"socat"},
			argv: []string{"socat", "-", "TCP:127.0.0.1:9"}, want: "Connection refused"},
		{name: "ci log: nc -z a port with nothing listening after thirty setup lines", tools: []string{"nc"},
			argv: noisy(30, "nc -zv -w 2 127.0.0.1 9"), want: "Connection refused"},
		// document tools
		{name: "ci log: groff a macro that is not defined between setup and teardown", tools: []string{"groff"},
			files: map[string]string{"shop.1": ".TH SHOP 1\n.SH NAME\nshop \\- run the shop\n.SH SYNOPSIS\n.BX shop\n"},
			argv:  noisyAround(25, 25, quiet("groff -man -Tutf8 -ww -z shop.1")), want: "macro 'BX' not defined"},
		{name: "chktex: a wrong kind of quote", tools: []string{"chktex"},
			files: map[string]string{"paper.tex": "\\documentclass{article}\n\\begin{document}\nThe \"shop\" sells things.\n\\end{document}\n"},
			argv:  []string{"chktex", "-q", "paper.tex"}, want: "Warning 18 in paper.tex line 3"},
		{name: "ci log: lacheck an unmatched environment after thirty setup lines", tools: []string{"lacheck"},
			files: map[string]string{"notes.tex": "\\documentclass{article}\n\\begin{document}\n\\begin{itemize}\n\\item one\n\\end{enumerate}\n\\end{document}\n"},
			argv:  noisy(30, quiet("lacheck notes.tex")), want: "notes.tex\", line 5"},
		{name: "makeinfo: a node that is referenced but not defined", tools: []string{"makeinfo"},
			files: map[string]string{"shop.texi": "\\input texinfo\n@setfilename shop.info\n@settitle Shop\n@node Top\n@top Shop\nSee @ref{Install}.\n@bye\n"},
			argv:  []string{"makeinfo", "shop.texi"}, want: "reference to nonexistent node `Install'"},
		{name: "ci log: makeinfo an unknown command between setup and teardown", tools: []string{"makeinfo"},
			files: map[string]string{"guide.texi": "\\input texinfo\n@setfilename guide.info\n@settitle Guide\n@node Top\n@top Guide\n@emphh{Read} this.\n@bye\n"},
			argv:  noisyAround(25, 25, "makeinfo guide.texi"), want: "unknown command `emphh'"},
		{name: "pass: makeinfo of a valid manual", tools: []string{"makeinfo"}, pass: true,
			files: map[string]string{"ok.texi": "\\input texinfo\n@setfilename ok.info\n@settitle Ok\n@node Top\n@top Ok\nErrors are listed in the log.\n@bye\n"},
			argv:  []string{"sh", "-c", "makeinfo ok.texi && echo 'manual built: ok.info'"}, want: "manual built"},
		{name: "ci log: hunspell a misspelt word after forty setup lines", tools: []string{"hunspell"},
			files: map[string]string{"README.txt": "The shop sells things.\nPayments are recieved before shipping.\n"},
			argv:  noisy(40, quiet("hunspell -d en_US -l README.txt")), want: "recieved"},
		{name: "xmlwf: a document that is not well formed", tools: []string{"xmlwf"},
			files: map[string]string{"feed.xml": "<feed>\n  <entry><title>One</title></entry>\n  <entry><title>Two</entry>\n</feed>\n"},
			argv:  []string{"sh", "-c", quiet("xmlwf feed.xml")}, want: "mismatched tag"},
		// Python linters and formatters
		{name: "pyflakes3: an undefined name", tools: []string{"pyflakes3"},
			files: map[string]string{"cart.py": "import os\n\n\ndef total(items):\n    return sum(items)\n\n\nprint(totl([1, 2]))\n"},
			argv:  []string{"pyflakes3", "cart.py"}, want: "undefined name 'totl'"},
		{name: "ci log: pyflakes3 an undefined name among many modules between setup and teardown", tools: []string{"pyflakes3"},
			files: map[string]string{"shop/a.py": pyMod(5), "shop/b.py": pyMod(5), "shop/c.py": pyMod(3) + "\nprint(rule_9(1))\n"},
			argv:  noisyAround(25, 25, "pyflakes3 shop"), want: "undefined name 'rule_9'"},
		{name: "pass: pyflakes3 of clean modules", tools: []string{"pyflakes3"}, pass: true,
			files: map[string]string{"shop/a.py": pyMod(5)},
			argv:  []string{"sh", "-c", "pyflakes3 shop && echo 'pyflakes: no problems found'"}, want: "no problems found"},
		{name: "pycodestyle: a line too long", tools: []string{"pycodestyle"},
			files: map[string]string{"tax.py": "RATE = 0.2\n\n\ndef tax(price):\n    return price * RATE  # the standard rate of value added tax on every item sold in the shop\n"},
			argv:  []string{"pycodestyle", "tax.py"}, want: "E501"},
		{name: "ci log: pycodestyle missing blank lines after thirty setup lines", tools: []string{"pycodestyle"},
			files: map[string]string{"cart.py": "import os\ndef total(items):\n    return sum(items)\n"},
			argv:  noisy(30, "pycodestyle cart.py"), want: "E302"},
		{name: "pydocstyle: a public function without a docstring", tools: []string{"pydocstyle"},
			files: map[string]string{"cart.py": "\"\"\"Cart.\"\"\"\n\n\ndef total(items):\n    return sum(items)\n"},
			argv:  []string{"pydocstyle", "cart.py"}, want: "D103"},
		{name: "bandit: a shell injection", tools: []string{"bandit"},
			files: map[string]string{"deploy.py": "import subprocess\n\n\ndef deploy(host):\n    subprocess.call('scp dist.tar.gz ' + host + ':/srv', shell=True)\n"},
			argv:  []string{"bandit", "-q", "deploy.py"}, want: "B602"},
		{name: "ci log: bandit a hard-coded password between setup and teardown", tools: []string{"bandit"},
			files: map[string]string{"db.py": "def connect(driver):\n    return driver.connect(host='db', password='hunter2')\n"},
			argv:  noisyAround(25, 25, "bandit -q db.py"), want: "B106"},
		{name: "isort --check-only: imports out of order", tools: []string{"isort"},
			files: map[string]string{"app.py": "import sys\nimport os\n\nprint(os.name, sys.argv)\n"},
			argv:  []string{"isort", "--check-only", "app.py"}, want: "Imports are incorrectly sorted"},
		{name: "ci log: yapf3 --diff a file that needs formatting after forty setup lines", tools: []string{"yapf3"},
			files: map[string]string{"fmt.py": "def total( items ):\n    return sum( items )\n"},
			argv:  noisy(40, "yapf3 --diff fmt.py"), want: "def total( items ):"},
		{name: "pass: isort --check-only of sorted imports", tools: []string{"isort"}, pass: true,
			files: map[string]string{"app.py": "import os\nimport sys\n\nprint(os.name, sys.argv)\n"},
			argv:  []string{"sh", "-c", "isort --check-only app.py && echo 'imports sorted'"}, want: "imports sorted"},
		{name: "sqlfluff lint: a keyword in the wrong case", tools: []string{"sqlfluff"},
			files: map[string]string{"report.sql": "SELECT id, total\nfrom orders\nWHERE total > 10\n"},
			argv:  []string{"sqlfluff", "lint", "--dialect", "ansi", "--nocolor", "report.sql"}, want: "L010"},
		{name: "ci log: sqlfluff parse a statement that does not parse between setup and teardown", tools: []string{"sqlfluff"},
			files: map[string]string{"orders.sql": "SELECT id total FROM WHERE id = 1;\n"},
			argv:  noisyAround(25, 25, "sqlfluff lint --dialect ansi --nocolor orders.sql"), want: "Found unparsable section: 'FROM'"},
		// C checkers and formatters
		{name: "splint: a variable used before it is defined", tools: []string{"splint"},
			files: map[string]string{"sum.c": "int sum(void) {\n    int total;\n    return total + 1;\n}\n"},
			argv:  []string{"splint", "-weak", "+usedef", "sum.c"}, want: "Variable total used before definition"},
		{name: "ci log: splint a parse error after thirty setup lines", tools: []string{"splint"},
			files: map[string]string{"cart.c": "int total(int a, int b) {\n    return a + b\n}\n"},
			argv:  noisy(30, "splint -weak cart.c"), want: "cart.c:3:2: Parse Error"},
		{name: "flawfinder --error-level: a strcpy", tools: []string{"flawfinder"},
			files: map[string]string{"copy.c": "#include <string.h>\nvoid copy(char *dst, const char *src) {\n    strcpy(dst, src);\n}\n"},
			argv:  []string{"flawfinder", "--error-level=4", "--quiet", "copy.c"}, want: "copy.c:3:  [4] (buffer) strcpy"},
		{name: "uncrustify --check: a file that is not formatted", tools: []string{"uncrustify"},
			files: map[string]string{"fmt.c": "int  main ( void ){return 0;}\n", "u.cfg": "indent_columns = 4\nsp_before_sparen = remove\nsp_inside_fparens = remove\n"},
			argv:  []string{"uncrustify", "-c", "u.cfg", "--check", "fmt.c"}, want: "FAIL: fmt.c"},
		// package tools
		{name: "apt-get install -s: a package that does not exist", tools: []string{"apt-get"},
			argv: []string{"apt-get", "install", "-s", "libshop-dev-nonexistent"}, want: "Unable to locate package libshop-dev-nonexistent"},
		{name: "ci log: pip install --no-index a requirement that cannot be found between setup and teardown", tools: []string{"pip3"},
			files: map[string]string{"requirements.txt": "shop-client==2.4.1\n"},
			argv:  noisyAround(25, 25, "pip3 install --no-index --dry-run --target deps -r requirements.txt"), want: "No matching distribution found for shop-client==2.4.1"},
		{name: "luarocks lint: a rockspec with a missing field", tools: []string{"luarocks"},
			files: map[string]string{"shop-1.0-1.rockspec": "package = \"shop\"\nversion = \"1.0-1\"\nsource = { url = \"git+https://example.com/shop.git\" }\nbuild = { type = \"builtin\", modules = { shop = \"shop.lua\" } }\n"},
			argv:  []string{"luarocks", "lint", "shop-1.0-1.rockspec"}, want: "attempt to index field 'description' (a nil value)"},
		{name: "ci log: luarocks make a module file that is missing after forty setup lines", tools: []string{"luarocks"},
			files: map[string]string{"cart-1.0-1.rockspec": "package = \"cart\"\nversion = \"1.0-1\"\nsource = { url = \"git+https://example.com/cart.git\" }\ndescription = { summary = \"cart\" }\ndependencies = {}\nbuild = { type = \"builtin\", modules = { cart = \"src/cart.lua\" } }\n"},
			argv:  noisy(40, "luarocks --tree tree make cart-1.0-1.rockspec"), want: "Failed installing src/cart.lua"},
		// a shell test runner
		{name: "shunit2: an assertEquals that fails", tools: []string{"shunit2"},
			files: shunit("testTotal() { assertEquals 'total of the cart' 6 \"$(expr 1 + 2 + 4)\"; }\ntestName() { assertEquals shop shop; }"),
			argv:  []string{"sh", "test_cart.sh"}, want: "expected:<6> but was:<7>"},
		{name: "ci log: shunit2 a failing test among many between setup and teardown", tools: []string{"shunit2"},
			files: shunit("testA() { assertTrue true; }\ntestB() { assertTrue true; }\ntestPort() { assertEquals 'port of the config' 8080 8008; }\ntestC() { assertTrue true; }"),
			argv:  noisyAround(25, 25, "sh test_cart.sh"), want: "expected:<8080> but was:<8008>"},
		{name: "pass: shunit2 tests that all pass", tools: []string{"shunit2"}, pass: true,
			files: shunit("testA() { assertEquals 1 1; }\ntestB() { assertTrue 'error count is zero' '[ 0 -eq 0 ]'; }"),
			argv:  []string{"sh", "test_cart.sh"}, want: "OK"},
		// Node tools from the registry
		{name: "stylus: a parse error", tools: []string{"stylus"},
			files: map[string]string{"site.styl": "body\n  color: red\n  .card {\n    padding 4px\n"},
			argv:  []string{"stylus", "--print", "site.styl"}, want: "ParseError: site.styl:5:1"},
		{name: "ci log: stylus an undefined variable in an expression between setup and teardown", tools: []string{"stylus"},
			files: map[string]string{"theme.styl": "base = 4px\n.card\n  padding base * gutter\n"},
			argv:  noisyAround(25, 25, "stylus --print theme.styl"), want: "cannot coerce gutter to unit"},
		{name: "uglifyjs: a parse error", tools: []string{"uglifyjs"},
			files: map[string]string{"cart.js": "function total(items) {\n  return items.reduce((a, b) => a + b, 0;\n}\n"},
			argv:  []string{"uglifyjs", "cart.js", "-o", "cart.min.js"}, want: "Parse error at cart.js:2,40"},
		{name: "ci log: uglifyjs an unexpected token after thirty setup lines", tools: []string{"uglifyjs"},
			files: map[string]string{"app.js": "var cfg = { port: 8080, host: 'db' ;\n"},
			argv:  noisy(30, "uglifyjs app.js -o app.min.js"), want: "Parse error at app.js:1,35"},
		{name: "qunit: an equality that fails", tools: []string{"qunit"},
			setup: nm,
			files: map[string]string{"test/cart.js": "const { test } = QUnit;\nQUnit.module('cart');\ntest('total of the cart', assert => { assert.equal(1 + 2 + 4, 6, 'total'); });\ntest('name', assert => { assert.equal('shop', 'shop'); });\n"},
			argv:  []string{"qunit", "test/cart.js"}, want: "actual  : 7"},
		{name: "ci log: qunit an exception in a test between setup and teardown", tools: []string{"qunit"},
			setup: nm,
			files: map[string]string{"test/cfg.js": "QUnit.module('config');\nQUnit.test('reads the port', assert => { const cfg = undefined; assert.equal(cfg.port, 80); });\n"},
			argv:  noisyAround(25, 25, "qunit test/cfg.js"), want: "Cannot read properties of undefined (reading 'port')"},
		{name: "pass: qunit tests that all pass", tools: []string{"qunit"}, pass: true,
			setup: nm,
			files: map[string]string{"test/ok.js": "QUnit.module('ok');\nQUnit.test('error count', assert => { assert.equal(0, 0); });\n"},
			argv:  []string{"qunit", "test/ok.js"}, want: "# pass 1"},
		{name: "standard: an unused variable and a semicolon", tools: []string{"standard"},
			files: map[string]string{"cart.js": "const unused = 1;\nmodule.exports = function total (items) { return items.length }\n"},
			argv:  []string{"standard", "cart.js"}, want: "'unused' is assigned a value but never used"},
		{name: "ci log: standard an undefined variable after forty setup lines", tools: []string{"standard"},
			files: map[string]string{"app.js": "module.exports = function port () { return prot }\n"},
			argv:  noisy(40, "standard app.js"), want: "'prot' is not defined"},
		{name: "c8 --check-coverage: lines below the threshold", tools: []string{"c8"},
			files: map[string]string{"lib.js": "exports.a = () => {\n  return 1\n}\nexports.b = (x) => {\n  const y = x * 2\n  return y + 1\n}\nexports.c = (x) => {\n  const y = x * 3\n  return y + 1\n}\n", "run.js": "require('./lib').a()\n"},
			argv:  []string{"c8", "--check-coverage", "--lines", "95", "--reporter", "text", "node", "run.js"}, want: "does not meet global threshold (95%)"},
		{name: "ci log: c8 a function threshold between setup and teardown", tools: []string{"c8"},
			files: map[string]string{"lib.js": "exports.a = () => 1\nexports.b = () => 2\n", "run.js": "require('./lib').a()\n"},
			argv:  noisyAround(25, 25, "c8 --check-coverage --functions 90 --reporter text node run.js"), want: "ERROR: Coverage for functions"},
		{name: "lockfile-lint: a resolved URL that is not https", tools: []string{"lockfile-lint"},
			files: map[string]string{"package-lock.json": "{\n  \"name\": \"shop\",\n  \"lockfileVersion\": 1,\n  \"requires\": true,\n  \"dependencies\": {\n    \"left-pad\": {\n      \"version\": \"1.3.0\",\n      \"resolved\": \"http://mirror.example.com/left-pad/-/left-pad-1.3.0.tgz\",\n      \"integrity\": \"sha512-XI5MPzVNApjAyhQzphX8BkmKsKUxD4LdyK24iZeQgPSKjzHBsHKHmoF7+H1DVvQ4Tb2Sqd0C9jEHRxMkqTCULw==\"\n    }\n  }\n}\n"},
			argv:  []string{"lockfile-lint", "--path", "package-lock.json", "--validate-https"}, want: "detected invalid protocol for package: left-pad"},
		{name: "jsonlint: a trailing comma", tools: []string{"jsonlint"},
			files: map[string]string{"config.json": "{\n  \"port\": 8080,\n  \"host\": \"db\",\n}\n"},
			argv:  []string{"jsonlint", "-q", "config.json"}, want: "Parse error on line 3"},
		{name: "ci log: jsonlint a missing comma after thirty setup lines", tools: []string{"jsonlint"},
			files: map[string]string{"app.json": "{\n  \"name\": \"shop\"\n  \"version\": \"1.0.0\"\n}\n"},
			argv:  noisy(30, "jsonlint -q app.json"), want: "Parse error on line 2"},
		{name: "pass: jsonlint of a valid document", tools: []string{"jsonlint"}, pass: true,
			files: map[string]string{"ok.json": "{\"errors\": 0, \"status\": \"valid\"}\n"},
			argv:  []string{"jsonlint", "ok.json"}, want: "\"status\": \"valid\""},
		{name: "csslint: an unknown property", tools: []string{"csslint"},
			files: map[string]string{"site.css": ".card {\n  colr: red;\n  padding: 4px;\n}\n"},
			argv:  []string{"csslint", "--format=compact", "--errors=known-properties", "site.css"}, want: "Unknown property 'colr'"},
		{name: "ci log: csslint a parse error between setup and teardown", tools: []string{"csslint"},
			files: map[string]string{"main.css": "body {\n  margin: 0;\n\n.nav { color: blue; }\n"},
			argv:  noisyAround(25, 25, "csslint --format=compact main.css"), want: "Expected RBRACE at line 4"},
		{name: "lsc -c: a compile error", tools: []string{"lsc"},
			files: map[string]string{"cart.ls": "total = (items) ->\n  items.reduce (a, b) -> a + b,, 0\n"},
			argv:  []string{"lsc", "-c", "cart.ls"}, want: "on line 2"},
		{name: "ci log: lsc an unmatched bracket after forty setup lines", tools: []string{"lsc"},
			files: map[string]string{"cfg.ls": "config =\n  port: 8080\n  hosts: [\\db, \\cache\n"},
			argv:  noisy(40, "lsc -c cfg.ls"), want: "unmatched `DEDENT` on line 4"},
		{name: "babel: a syntax error", tools: []string{"babel"},
			files: map[string]string{"src/cart.js": "export function total(items) {\n  return items.reduce((a, b) => a + b 0);\n}\n"},
			argv:  []string{"babel", "src", "-d", "lib"}, want: "src/cart.js: Unexpected token"},
		{name: "ci log: babel a duplicate declaration between setup and teardown", tools: []string{"babel"},
			files: map[string]string{"src/cfg.js": "const port = 8080;\nconst port = 9090;\nexport default port;\n"},
			argv:  noisyAround(25, 25, "babel src -d lib"), want: "Identifier 'port' has already been declared"},
		{name: "pass: babel a clean source folder", tools: []string{"babel"}, pass: true,
			files: map[string]string{"src/ok.js": "export const errors = 0;\n"},
			argv:  []string{"babel", "src", "-d", "lib"}, want: "Successfully compiled 1 file"},
		{name: "madge --circular: a circular dependency", tools: []string{"madge"},
			files: map[string]string{"src/a.js": "require('./b');\n", "src/b.js": "require('./c');\n", "src/c.js": "require('./a');\n", "src/d.js": "module.exports = 1;\n"},
			argv:  []string{"madge", "--no-color", "--no-spinner", "--circular", "src"}, want: "a.js > b.js > c.js"},
		{name: "ejslint: an unclosed tag", tools: []string{"ejslint"},
			files: map[string]string{"row.ejs": "<tr>\n  <td><%= item.name %></td>\n  <td><%= item.price </td>\n</tr>\n"},
			argv:  []string{"ejslint", "row.ejs"}, want: "Unterminated regular expression (3:25) in row.ejs"},
		{name: "lesshint: a property with an important flag", tools: []string{"lesshint"},
			files: map[string]string{"site.less": ".card {\n    color: red !important;\n}\n"},
			argv:  []string{"lesshint", "--max-warnings", "0", "site.less"}, want: "!important"},
		{name: "ci log: lesshint an id selector between setup and teardown", tools: []string{"lesshint"},
			files: map[string]string{"nav.less": "#nav {\n    color: blue;\n}\n"},
			argv:  noisyAround(25, 25, "lesshint --max-warnings 0 nav.less"), want: "Selectors should not use IDs"},
		{name: "dockerfilelint: a missing tag and a bad instruction", tools: []string{"dockerfilelint"},
			files: map[string]string{"Dockerfile": "FROM debian\nRUN apt-get update && apt-get install -y curl\nEXPOS 8080\n"},
			argv:  []string{"dockerfilelint", "Dockerfile"}, want: "Invalid Command"},
		{name: "biome lint: an unused variable", tools: []string{"biome"},
			files: map[string]string{"cart.js": "const total = (items) => {\n  const unused = 1;\n  return items.length;\n};\nexport { total };\n"},
			argv:  []string{"biome", "lint", "--colors=off", "--error-on-warnings", "cart.js"}, want: "cart.js:2:9 lint/correctness/noUnusedVariables"},
		{name: "ci log: biome format a file that is not formatted after thirty setup lines", tools: []string{"biome"},
			files: map[string]string{"app.js": "export const port=8080\n"},
			argv:  noisy(30, "biome format --colors=off app.js"), want: "app.js format"},
		{name: "ci log: biome check a parse error between setup and teardown", tools: []string{"biome"},
			files: map[string]string{"cfg.js": "export const cfg = { port: 8080, host: 'db' ;\n"},
			argv:  noisyAround(25, 25, "biome check --colors=off cfg.js"), want: "expected `,` but instead found `;`"},
		{name: "write-good: passive voice in the readme", tools: []string{"write-good"},
			files: map[string]string{"README.md": "# Shop\n\nThe payment is processed by the server.\n"},
			argv:  []string{"write-good", "README.md"}, want: "may be passive voice"},
		// passing runs, two of them in a CI log with the pass line before the teardown
		{name: "pass: ci log: pycodestyle of a clean module between setup and teardown", tools: []string{"pycodestyle"}, pass: true,
			files: map[string]string{"ok.py": strings.TrimRight(pyMod(4), "\n") + "\n"},
			argv:  noisyAround(25, 25, "pycodestyle ok.py && echo 'style check passed: ok.py'"), want: "style check passed"},
		{name: "pass: systemd-analyze verify of a unit that is complete", tools: []string{"systemd-analyze"}, pass: true,
			files: map[string]string{"ok.service": "[Unit]\nDescription=Ok\n\n[Service]\nExecStart=/bin/true\n"},
			argv:  []string{"sh", "-c", "systemd-analyze verify ./ok.service && echo 'unit files verified'"}, want: "unit files verified"},
		{name: "pass: biome lint of a clean file", tools: []string{"biome"}, pass: true,
			files: map[string]string{"ok.js": "export const errors = 0;\n"},
			argv:  []string{"biome", "lint", "--colors=off", "ok.js"}, want: "Checked 1 file"},
		{name: "pass: ci log: mcs and mono a program that reports zero errors after thirty setup lines", tools: []string{"mcs", "mono"}, pass: true,
			files: map[string]string{"Ok.cs": "class Ok {\n    static void Main() {\n        System.Console.WriteLine(\"errors: 0\");\n        System.Console.WriteLine(\"report built\");\n    }\n}\n"},
			argv:  noisy(30, "mcs Ok.cs && mono Ok.exe"), want: "report built"},
		{name: "pass: c8 --check-coverage of a fully covered module", tools: []string{"c8"}, pass: true,
			files: map[string]string{"lib.js": "exports.a = () => 1\n", "run.js": "require('./lib').a()\n"},
			argv:  []string{"c8", "--check-coverage", "--lines", "95", "--reporter", "text", "node", "run.js"}, want: "All files |     100"},
	}
}
