package explain

import (
	"crypto/sha256"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The third held-out set: real runs of tools neither the tuning corpus nor
// the first two held-out sets hold (Elixir, Erlang, OCaml, Guile, SBCL,
// Prolog, R, Fortran, Pascal; nginx, HAProxy, Ansible, rsync; meson,
// scons, autoconf, bison, flex; pandoc, protoc, graphviz, xsltproc, tidy;
// linters and formatters; the Perl, Ruby and Node test and build tools),
// recorded live and marked by hand before explain's ranking was changed
// for "explain that generalises". It is scored, and reported, apart; the
// ranking is never tuned on it.
const heldoutThirdDir = "testdata/heldout3"

// heldoutThirdPin is the SHA-256 of heldout3.txt, pinned when the 97 runs
// of 45 tools were recorded and marked, before any rule was changed for
// "explain that generalises". Its score then (make corpus): explain 63/85
// failures (74%) two pipes, 61/85 (71%) combined, 12/12 passes; head -10 +
// tail -10 74/85 (87%), tail -10 64/85, grep|head -4 43/85; over 20 lines
// explain 16/24 against head+tail 13/24.
const heldoutThirdPin = "23c3aaa4bb5a1dc6584f1f4ce471120048cb09c5eb309fc2ad02c70c7e01a4c6"

const heldoutThirdList = heldoutThirdDir + "/heldout3.txt"

// TestHeldoutThirdPinned fails when a case of the third held-out set, its
// marked line or its kept output changes (-heldout.pin rewrites the list).
func TestHeldoutThirdPinned(t *testing.T) {
	checkPinned(t, heldoutThirdList, heldoutThirdPin, "heldoutThirdPin", pinLines(t, heldoutThirdDir, heldoutThirdCases()))
}

// checkPinned fails when a held-out set's cases, marked lines or kept
// outputs (want, as pinLines lists them) differ from its list file, or
// the list from its pinned hash; -heldout.pin rewrites the list and logs
// the new hash for the const named constName.
func checkPinned(t *testing.T, list, pin, constName, want string) {
	t.Helper()
	if *heldoutRepin {
		require.NoError(t, os.WriteFile(list, []byte(want), 0o644))
		t.Logf("pinned: const %s = %q", constName, fmt.Sprintf("%x", sha256.Sum256([]byte(want))))
		return
	}
	got, err := os.ReadFile(list)
	require.NoError(t, err)
	require.Equal(t, pin, fmt.Sprintf("%x", sha256.Sum256(got)), "%s changed after it was pinned", list)
	require.Equal(t, string(got), want, "the held-out cases or their kept runs differ from %s", list)
}

// noisy runs a shell script that prints n progress lines and then runs
// cmd: the shape of a CI job's log around the tool that fails.
func noisy(n int, cmd string) []string {
	return []string{"sh", "-c", fmt.Sprintf("i=0; while [ $i -lt %d ]; do i=$((i+1)); echo \"[ci] step $i/%d: preparing workspace module-$i ok\"; done; %s", n, n, cmd)}
}

// noisyAround is noisy with n lines after cmd too (collecting logs,
// uploading artifacts, cleaning up), ending with cmd's status: the cause is
// in the middle of a long log.
func noisyAround(before, after int, cmd string) []string {
	return []string{"sh", "-c", fmt.Sprintf("i=0; while [ $i -lt %d ]; do i=$((i+1)); echo \"[ci] step $i/%d: preparing workspace module-$i ok\"; done; %s; rc=$?; i=0; while [ $i -lt %d ]; do i=$((i+1)); echo \"[ci] post $i/%d: archived report-$i.xml\"; done; exit $rc", before, before, cmd, after, after)}
}

func mixProject(lib, test string) map[string]string {
	return map[string]string{
		"mix.exs":              "defmodule Shop.MixProject do\n  use Mix.Project\n\n  def project do\n    [app: :shop, version: \"0.1.0\", elixir: \"~> 1.14\", deps: []]\n  end\nend\n",
		"lib/shop.ex":          lib,
		"test/test_helper.exs": "ExUnit.start()\n",
		"test/shop_test.exs":   test,
	}
}

func exunitTests(n int, extra string) string {
	var b strings.Builder
	b.WriteString("defmodule ShopTest do\n  use ExUnit.Case\n\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  test \"price rule %d\" do\n    assert Shop.add(%d, 1) == %d\n  end\n\n", i, i, i+1)
	}
	b.WriteString(extra)
	b.WriteString("end\n")
	return b.String()
}

const shopLib = "defmodule Shop do\n  def add(a, b), do: a + b\n  def status(_order), do: \"draft\"\nend\n"

func heldoutThirdCases() []corpusCase {
	return []corpusCase{
		// Elixir
		{name: "elixir: KeyError from Map.fetch! in a script", tools: []string{"elixir"},
			files: map[string]string{"boot.exs": "cfg = %{host: \"db\"}\nIO.puts(\"connecting to #{cfg.host}\")\nport = Map.fetch!(cfg, :port)\nIO.puts(port)\n"},
			argv:  []string{"elixir", "boot.exs"}, want: "(KeyError) key :port not found"},
		{name: "elixir: MatchError on a file read", tools: []string{"elixir"},
			files: map[string]string{"load.exs": "IO.puts(\"loading settings\")\n{:ok, body} = File.read(\"settings.json\")\nIO.puts(body)\n"},
			argv:  []string{"elixir", "load.exs"}, want: "(MatchError) no match of right hand side value: {:error, :enoent}"},
		{name: "mix test: assert == with left and right among passing tests", tools: []string{"mix"},
			files: mixProject(shopLib, exunitTests(14, "  test \"a paid order is published\" do\n    assert Shop.status(:paid) == \"published\"\n  end\n")),
			argv:  []string{"mix", "test", "--seed", "0"}, want: "left:  \"draft\""},
		{name: "mix compile: undefined function in a module", tools: []string{"mix"},
			files: mixProject("defmodule Shop do\n  def add(a, b), do: a + b\n  def label(p), do: \"price: \" <> format_price(p)\nend\n", exunitTests(1, "")),
			argv:  []string{"mix", "compile"}, want: "undefined function format_price/1"},
		{name: "pass: mix test with an error logged by the code under test", tools: []string{"mix"},
			files: mixProject("defmodule Shop do\n  require Logger\n  def add(a, b) do\n    if a == 3, do: Logger.error(\"retrying add after error: timeout\")\n    a + b\n  end\nend\n", exunitTests(8, "")),
			argv:  []string{"mix", "test", "--seed", "0"}, want: "8 tests, 0 failures", pass: true},
		// Erlang
		{name: "escript: badmatch on a missing file", tools: []string{"escript"},
			files: map[string]string{"load.erl": "#!/usr/bin/env escript\nmain(_) ->\n    io:format(\"reading inventory~n\"),\n    {ok, Bin} = file:read_file(\"inventory.csv\"),\n    io:format(\"~s~n\", [Bin]).\n"},
			argv:  []string{"escript", "load.erl"}, want: "no match of right hand side value {error,enoent}"},
		{name: "erlc: a function that is not defined", tools: []string{"erlc"},
			files: map[string]string{"cart.erl": "-module(cart).\n-export([total/1]).\n\ntotal(Items) ->\n    lists:sum([price(I) || I <- Items]).\n"},
			argv:  []string{"erlc", "cart.erl"}, want: "function price/1 undefined"},
		{name: "erlc: syntax error before a token", tools: []string{"erlc"},
			files: map[string]string{"tax.erl": "-module(tax).\n-export([rate/1]).\n\nrate(Country) ->\n    case Country of\n        fr -> 0.2;\n        de -> 0.19\n    end\n    ok.\n"},
			argv:  []string{"erlc", "tax.erl"}, want: "syntax error before: ok"},
		// OCaml
		{name: "ocamlc: an expression of the wrong type", tools: []string{"ocamlc"},
			files: map[string]string{"total.ml": "let price = \"12\"\nlet total = price + 3\nlet () = print_int total\n"},
			argv:  []string{"ocamlc", "-o", "total", "total.ml"}, want: "This expression has type string but an expression was expected of type"},
		{name: "ocaml: uncaught Not_found from a lookup", tools: []string{"ocaml"},
			files: map[string]string{"lookup.ml": "let () = print_endline \"looking up the rate\"\nlet rates = [(\"fr\", 20); (\"de\", 19)]\nlet () = print_int (List.assoc \"it\" rates)\n"},
			argv:  []string{"ocaml", "lookup.ml"}, want: "Exception: Not_found."},
		// Guile
		{name: "guile: unbound variable in a script", tools: []string{"guile"},
			files: map[string]string{"report.scm": "(display \"building report\")\n(newline)\n(define (total items) (apply + items))\n(display (totl '(1 2 3)))\n"},
			argv:  []string{"guile", "--no-auto-compile", "report.scm"}, want: "Unbound variable: totl"},
		{name: "guile: wrong type argument to +", tools: []string{"guile"},
			files: map[string]string{"sum.scm": "(define qty \"3\")\n(display (+ qty 1))\n"},
			argv:  []string{"guile", "--no-auto-compile", "sum.scm"}, want: "Wrong type argument in position 1: \"3\""},
		// SBCL
		{name: "sbcl: undefined function under an unhandled-condition banner", tools: []string{"sbcl"},
			files: map[string]string{"bill.lisp": "(format t \"billing~%\")\n(defun bill (items) (total-price items))\n(bill '(1 2))\n"},
			argv:  []string{"sbcl", "--script", "bill.lisp"}, want: "The function COMMON-LISP-USER::TOTAL-PRICE is undefined."},
		{name: "sbcl: an error signalled with its message", tools: []string{"sbcl"},
			files: map[string]string{"inv.lisp": "(format t \"checking invoices~%\")\n(defun check (id) (error \"invoice ~a has no customer\" id))\n(check 42)\n"},
			argv:  []string{"sbcl", "--script", "inv.lisp"}, want: "invoice 42 has no customer"},
		// Prolog
		{name: "swipl: unknown procedure called from a goal", tools: []string{"swipl"},
			files: map[string]string{"shop.pl": "item(apple, 3).\nitem(pear, 4).\ntotal(T) :- findall(P, item(_, P), Ps), sum_list(Ps, T0), tax(T0, T).\n"},
			argv:  []string{"swipl", "-g", "total(T), print(T), nl", "-t", "halt", "shop.pl"}, want: "Unknown procedure: tax/2"},
		{name: "swipl: syntax error while loading", tools: []string{"swipl"},
			files: map[string]string{"rules.pl": "price(apple, 3).\nprice(pear 4).\nprice(plum, 5).\n"},
			argv:  []string{"swipl", "--on-error=status", "-g", "halt", "rules.pl"}, want: "Syntax error: Operator expected"},
		{name: "pass: swipl plunit tests all pass", tools: []string{"swipl"},
			files: map[string]string{"t.pl": ":- use_module(library(plunit)).\n:- begin_tests(shop).\ntest(add) :- 3 =:= 1 + 2.\ntest(errors_are_counted) :- atom_length(error, 5).\ntest(mul) :- 6 =:= 2 * 3.\n:- end_tests(shop).\n"},
			argv:  []string{"swipl", "-g", "run_tests", "-t", "halt", "t.pl"}, want: "passed", pass: true},
		// R
		{name: "Rscript: an object that is not found", tools: []string{"Rscript"},
			files: map[string]string{"report.R": "sales <- c(10, 20, 30)\ncat(\"rows:\", length(sales), \"\\n\")\nprint(summary(sales))\ntotal <- sum(sale)\ncat(total, \"\\n\")\n"},
			argv:  []string{"Rscript", "report.R"}, want: "object 'sale' not found"},
		{name: "Rscript: stopifnot of a data frame's rows", tools: []string{"Rscript"},
			files: map[string]string{"check.R": "df <- data.frame(id = 1:4, qty = c(1, 2, 3, 4))\nprint(df)\nstopifnot(nrow(df) == 3)\n"},
			argv:  []string{"Rscript", "check.R"}, want: "nrow(df) == 3 is not TRUE"},
		{name: "Rscript: stop in a function after warnings", tools: []string{"Rscript"},
			files: map[string]string{"fit.R": "check_input <- function(x) { if (any(x < 0)) stop(\"input must be positive, got \", min(x)) ; x }\nx <- as.numeric(c(\"1\", \"two\", \"-3\"))\nprint(x)\ny <- check_input(x[!is.na(x)])\n"},
			argv:  []string{"Rscript", "fit.R"}, want: "input must be positive, got -3"},
		{name: "pass: Rscript with warning messages", tools: []string{"Rscript"},
			files: map[string]string{"ok.R": "x <- as.numeric(c(\"1\", \"2\", \"x\"))\nprint(mean(x, na.rm = TRUE))\ncat(\"error rate: 0\\n\")\ncat(\"done\\n\")\n"},
			argv:  []string{"Rscript", "ok.R"}, want: "done", pass: true},
		// Fortran and Pascal
		{name: "gfortran: a symbol with no implicit type", tools: []string{"gfortran"},
			files: map[string]string{"sum.f90": "program sum\n  implicit none\n  integer :: i\n  do i = 1, 3\n    total = total + i\n  end do\n  print *, total\nend program sum\n"},
			argv:  []string{"gfortran", "-o", "sum", "sum.f90"}, want: "Symbol 'total' at (1) has no IMPLICIT type"},
		{name: "gfortran -fcheck=bounds: index above the upper bound", tools: []string{"gfortran"},
			files: map[string]string{"arr.f90": "program arr\n  integer :: a(10), i\n  do i = 1, 11\n    a(i) = i\n  end do\n  print *, a(1)\nend program arr\n"},
			argv:  []string{"sh", "-c", "gfortran -fcheck=bounds -o arr arr.f90 && ./arr"}, want: "above upper bound of 10"},
		{name: "pass: gfortran program that prints an error estimate", tools: []string{"gfortran"},
			files: map[string]string{"est.f90": "program est\n  print *, 'iterations: 40'\n  print *, 'error estimate: 1.0e-6'\n  print *, 'converged'\nend program est\n"},
			argv:  []string{"sh", "-c", "gfortran -o est est.f90 && ./est"}, want: "converged", pass: true},
		{name: "fpc: identifier not found", tools: []string{"fpc"},
			files: map[string]string{"hello.pas": "program hello;\nbegin\n  writeln('start');\n  writelm('done');\nend.\n"},
			argv:  []string{"fpc", "hello.pas"}, want: "Identifier not found \"writelm\""},
		{name: "fpc: range check error at run time", tools: []string{"fpc"},
			files: map[string]string{"rng.pas": "program rng;\n{$R+}\nvar a: array[1..5] of integer; i: integer;\nbegin\n  for i := 1 to 6 do a[i] := i;\n  writeln(a[1]);\nend.\n"},
			argv:  []string{"sh", "-c", "fpc -gl rng.pas >/dev/null && ./rng"}, want: "Runtime error 201"},
		// servers' configuration checks
		{name: "nginx -t: an unknown directive", tools: []string{"nginx"},
			files: map[string]string{"site.conf": "server {\n  listen 8080;\n  lisen 80;\n}\n"},
			argv:  []string{"sh", "-c", "printf 'pid %s/nginx.pid;\\nerror_log stderr;\\nevents {}\\nhttp {\\n include %s/site.conf;\\n}\\n' \"$PWD\" \"$PWD\" > nginx.conf && nginx -t -q -c \"$PWD/nginx.conf\" -e stderr"}, want: "unknown directive \"lisen\""},
		{name: "nginx -t: a directive without its semicolon", tools: []string{"nginx"},
			files: map[string]string{"site.conf": "server {\n  listen 8080\n  root /srv/www;\n}\n"},
			argv:  []string{"sh", "-c", "printf 'pid %s/nginx.pid;\\nerror_log stderr;\\nevents {}\\nhttp {\\n include %s/site.conf;\\n}\\n' \"$PWD\" \"$PWD\" > nginx.conf && nginx -t -q -c \"$PWD/nginx.conf\" -e stderr"}, want: "invalid parameter \"root\""},
		{name: "pass: nginx -t of a valid configuration", tools: []string{"nginx"},
			files: map[string]string{"site.conf": "server {\n  listen 8080;\n  root /srv/www;\n  error_page 500 /error.html;\n}\n"},
			argv:  []string{"sh", "-c", "printf 'pid %s/nginx.pid;\\nerror_log stderr;\\nevents {}\\nhttp {\\n include %s/site.conf;\\n}\\n' \"$PWD\" \"$PWD\" > nginx.conf && nginx -t -c \"$PWD/nginx.conf\" -e stderr"}, want: "test is successful", pass: true},
		{name: "haproxy -c: an unknown keyword in a backend", tools: []string{"haproxy"},
			files: map[string]string{"h.cfg": "global\n  maxconn 100\ndefaults\n  mode http\n  timeout client 5s\n  timeout server 5s\n  timeout connect 5s\nbackend app\n  balanse roundrobin\n"},
			argv:  []string{"haproxy", "-c", "-f", "h.cfg"}, want: "unknown keyword 'balanse'"},
		{name: "haproxy -c: a timeout that is not a number", tools: []string{"haproxy"},
			files: map[string]string{"h.cfg": "defaults\n  mode http\n  timeout client soon\n  timeout server 5s\n  timeout connect 5s\n"},
			argv:  []string{"haproxy", "-c", "-f", "h.cfg"}, want: "timeout client"},
		{name: "pass: haproxy -c of a valid configuration", tools: []string{"haproxy"},
			files: map[string]string{"h.cfg": "defaults\n  mode http\n  timeout client 5s\n  timeout server 5s\n  timeout connect 5s\nfrontend f\n  bind 127.0.0.1:8081\n  default_backend b\nbackend b\n  server s1 127.0.0.1:9000\n"},
			argv:  []string{"haproxy", "-c", "-f", "h.cfg"}, want: "Configuration file is valid", pass: true},
		// Ansible
		{name: "ansible-playbook: fail with a message in a loop", tools: []string{"ansible-playbook"},
			files: map[string]string{"site.yml": "- hosts: localhost\n  connection: local\n  gather_facts: false\n  tasks:\n    - name: prepare\n      ansible.builtin.debug: {msg: preparing}\n    - name: check volumes\n      ansible.builtin.fail:\n        msg: \"disk quota for {{ item }} exceeded\"\n      when: item == '/srv'\n      loop: ['/var', '/srv', '/opt']\n"},
			argv:  []string{"env", "LC_ALL=C.UTF-8", "LANG=C.UTF-8", "ansible-playbook", "-i", "localhost,", "site.yml"}, want: "disk quota for /srv exceeded"},
		{name: "ansible-playbook: an undefined variable in a task", tools: []string{"ansible-playbook"},
			files: map[string]string{"db.yml": "- hosts: localhost\n  connection: local\n  gather_facts: false\n  vars:\n    db_host: db1\n  tasks:\n    - name: show target\n      ansible.builtin.debug: {msg: \"{{ db_host }}\"}\n    - name: connect\n      ansible.builtin.debug: {msg: \"{{ db_host }}:{{ db_port }}\"}\n"},
			argv:  []string{"env", "LC_ALL=C.UTF-8", "LANG=C.UTF-8", "ansible-playbook", "-i", "localhost,", "db.yml"}, want: "'db_port' is undefined"},
		{name: "ansible-playbook: assert with a fail message", tools: []string{"ansible-playbook"},
			files: map[string]string{"a.yml": "- hosts: localhost\n  connection: local\n  gather_facts: false\n  vars:\n    replicas: 4\n  tasks:\n    - ansible.builtin.assert:\n        that: replicas is odd\n        fail_msg: replicas must be odd for the quorum\n"},
			argv:  []string{"env", "LC_ALL=C.UTF-8", "LANG=C.UTF-8", "ansible-playbook", "-i", "localhost,", "a.yml"}, want: "replicas must be odd for the quorum"},
		{name: "ansible-playbook: a command that exits non-zero", tools: []string{"ansible-playbook"},
			files: map[string]string{"c.yml": "- hosts: localhost\n  connection: local\n  gather_facts: false\n  tasks:\n    - name: migrate\n      ansible.builtin.command: sh -c 'echo migrating; echo \"relation accounts does not exist\" >&2; exit 3'\n"},
			argv:  []string{"env", "LC_ALL=C.UTF-8", "LANG=C.UTF-8", "ansible-playbook", "-i", "localhost,", "c.yml"}, want: "relation accounts does not exist"},
		{name: "pass: ansible-playbook with an ignored failure", tools: []string{"ansible-playbook"},
			files: map[string]string{"p.yml": "- hosts: localhost\n  connection: local\n  gather_facts: false\n  tasks:\n    - name: optional cache warm-up\n      ansible.builtin.command: sh -c 'echo cache error >&2; exit 1'\n      ignore_errors: true\n    - name: deploy\n      ansible.builtin.debug: {msg: deployed}\n"},
			argv:  []string{"env", "LC_ALL=C.UTF-8", "LANG=C.UTF-8", "ansible-playbook", "-i", "localhost,", "p.yml"}, want: "failed=0", pass: true},
		// rsync
		{name: "rsync -av: one source file missing among many", tools: []string{"rsync"},
			setup: [][]string{{"sh", "-c", "mkdir -p src dst && for i in $(seq 1 30); do echo $i > src/page-$i.html; done"}},
			argv:  []string{"rsync", "-av", "src/", "src/missing-logo.png", "dst/"}, want: "missing-logo.png\" failed: No such file or directory"},
		{name: "rsync: a destination under a regular file", tools: []string{"rsync"},
			setup: [][]string{{"sh", "-c", "echo x > a.txt && echo y > backup"}},
			argv:  []string{"rsync", "-a", "a.txt", "backup/daily/"}, want: "Not a directory"},
		{name: "pass: rsync -av of files named after errors", tools: []string{"rsync"},
			setup: [][]string{{"sh", "-c", "mkdir -p logs out && for n in error.log errors-2024.txt failed-jobs.csv access.log; do echo x > logs/$n; done"}},
			argv:  []string{"rsync", "-av", "logs/", "out/"}, want: "total size is", pass: true},
		// documents and schemas
		{name: "pandoc: YAML metadata that does not parse", tools: []string{"pandoc"},
			files: map[string]string{"doc.md": "---\ntitle: Release notes\nauthors:\n  - ann\n - bob\n---\n\n# Notes\n\nText.\n"},
			argv:  []string{"pandoc", "doc.md", "-o", "doc.html"}, want: "did not find expected"},
		{name: "pandoc: an input format that does not exist", tools: []string{"pandoc"},
			files: map[string]string{"doc.md": "# x\n"},
			argv:  []string{"pandoc", "-f", "markdwn", "doc.md"}, want: "Unknown input format markdwn"},
		{name: "protoc: a message type that is not defined", tools: []string{"protoc"},
			files: map[string]string{"shop.proto": "syntax = \"proto3\";\npackage shop;\n\nmessage Item {\n  string sku = 1;\n  Money price = 2;\n}\n"},
			argv:  []string{"protoc", "--cpp_out=.", "shop.proto"}, want: "\"Money\" is not defined."},
		{name: "protoc: a missing semicolon", tools: []string{"protoc"},
			files: map[string]string{"order.proto": "syntax = \"proto3\";\n\nmessage Order {\n  string id = 1\n  int32 qty = 2;\n}\n"},
			argv:  []string{"protoc", "--cpp_out=.", "order.proto"}, want: "Expected \";\"."},
		{name: "dot: a syntax error in a graph", tools: []string{"dot"},
			files: map[string]string{"g.dot": "digraph deps {\n  app -> lib;\n  lib -> -> core;\n}\n"},
			argv:  []string{"dot", "-Tsvg", "-o", "g.svg", "g.dot"}, want: "syntax error in line 3"},
		{name: "xsltproc: a variable that is not declared", tools: []string{"xsltproc"},
			files: map[string]string{
				"r.xsl": "<xsl:stylesheet version=\"1.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\">\n<xsl:template match=\"/\">\n<total><xsl:value-of select=\"$totl\"/></total>\n</xsl:template>\n</xsl:stylesheet>\n",
				"d.xml": "<order><item>1</item></order>\n"},
			argv: []string{"xsltproc", "r.xsl", "d.xml"}, want: "Variable 'totl' has not been declared"},
		{name: "tidy -e: one error among warnings", tools: []string{"tidy"},
			files: map[string]string{"p.html": "<!DOCTYPE html>\n<html><head><title>t</title></head>\n<body>\n<center>old</center>\n<p>one\n<blinky>x</blinky>\n<img src=a.png>\n</body></html>\n"},
			argv:  []string{"tidy", "-e", "-q", "p.html"}, want: "<blinky> is not recognized!"},
		// build systems
		{name: "meson setup: a dependency that is not found", tools: []string{"meson", "cc"},
			files: map[string]string{"meson.build": "project('shop', 'c')\ndep = dependency('libshopcore', version: '>=2.0')\nexecutable('shop', 'main.c', dependencies: dep)\n", "main.c": "int main(void) { return 0; }\n"},
			argv:  []string{"meson", "setup", "build"}, want: "Dependency \"libshopcore\" not found"},
		{name: "meson setup: an unknown function in meson.build", tools: []string{"meson", "cc"},
			files: map[string]string{"meson.build": "project('shop', 'c')\nexecutabel('shop', 'main.c')\n", "main.c": "int main(void) { return 0; }\n"},
			argv:  []string{"meson", "setup", "build"}, want: "Unknown function \"executabel\""},
		{name: "pass: meson setup with a deprecation warning", tools: []string{"meson", "cc"},
			files: map[string]string{"meson.build": "project('shop', 'c', meson_version: '>=0.40')\nexecutable('shop', 'main.c')\n", "main.c": "int main(void) { return 0; }\n"},
			argv:  []string{"meson", "setup", "build"}, want: "Build targets in project: 1", pass: true},
		{name: "scons: a compiler error inside a scons build", tools: []string{"scons", "gcc"},
			files: map[string]string{"SConstruct": "Program('shop', ['main.c', 'cart.c'])\n", "main.c": "int total(void);\nint main(void) { return total(); }\n", "cart.c": "int total(void) {\n  return prices[0];\n}\n"},
			argv:  []string{"scons", "-Q"}, want: "'prices' undeclared"},
		{name: "scons: a misspelt builder in SConstruct", tools: []string{"scons"},
			files: map[string]string{"SConstruct": "env = Enviroment()\nenv.Program('shop', 'main.c')\n"},
			argv:  []string{"scons", "-Q"}, want: "name 'Enviroment' is not defined"},
		{name: "configure: a required library that is missing, after many checks", tools: []string{"autoconf", "cc"},
			files: map[string]string{"configure.ac": "AC_INIT([shop], [1.0])\nAC_PROG_CC\nAC_CHECK_HEADERS([stdio.h stdlib.h string.h unistd.h])\nAC_CHECK_FUNCS([strdup strndup memmove])\nAC_CHECK_LIB([shopcore], [shop_open], [], [AC_MSG_ERROR([libshopcore is required: install libshopcore-dev])])\nAC_OUTPUT\n"},
			argv:  []string{"sh", "-c", "autoconf && ./configure"}, want: "libshopcore is required: install libshopcore-dev"},
		{name: "autoconf: a macro that is not defined", tools: []string{"autoconf"},
			files: map[string]string{"configure.ac": "AC_INIT([shop], [1.0])\nAC_PROG_CCC\nAC_OUTPUT\n"},
			argv:  []string{"autoconf", "-Werror"}, want: "possibly undefined macro: AC_PROG_CCC"},
		{name: "bison: a symbol used but not defined", tools: []string{"bison"},
			files: map[string]string{"calc.y": "%token NUMBER\n%%\nexpr: expr '+' term | term ;\nterm: NUMBR ;\n%%\n"},
			argv:  []string{"bison", "calc.y"}, want: "symbol 'NUMBR' is used, but is not defined as a token and has no rules"},
		{name: "flex: an unrecognised rule", tools: []string{"flex"},
			files: map[string]string{"scan.l": "%%\n[0-9]+   { return 1; }\n[a-z+    { return 2; }\n%%\n"},
			argv:  []string{"flex", "scan.l"}, want: "unrecognized rule"},
		// linters and formatters
		{name: "clang-tidy: a null dereference made an error", tools: []string{"clang-tidy"},
			files: map[string]string{"m.c": "#include <stdio.h>\nint main(void) {\n  int *count = 0;\n  puts(\"counting\");\n  return *count;\n}\n"},
			argv:  []string{"clang-tidy", "-checks=-*,clang-analyzer-core.NullDereference", "-warnings-as-errors=*", "m.c", "--"}, want: "Dereference of null pointer (loaded from variable 'count')"},
		{name: "clang-format --dry-run -Werror: a file that is not formatted", tools: []string{"clang-format"},
			files: map[string]string{"m.c": "int main(void){return 0;}\n"},
			argv:  []string{"clang-format", "--dry-run", "-Werror", "m.c"}, want: "code should be clang-formatted"},
		{name: "luacheck: an undefined global among unused variables", tools: []string{"luacheck"},
			files: map[string]string{"app.lua": "local json = require('json')\nlocal unused = 1\nlocal function total(items)\n  local sum = 0\n  for _, v in ipairs(items) do sum = sum + v end\n  prnt(sum)\n  return sum\nend\nreturn total\n"},
			argv:  []string{"luacheck", "--no-color", "app.lua"}, want: "accessing undefined variable 'prnt'"},
		{name: "pass: luacheck of a clean file", tools: []string{"luacheck"},
			files: map[string]string{"ok.lua": "local M = {}\nfunction M.errors_seen(n)\n  return n > 0\nend\nreturn M\n"},
			argv:  []string{"luacheck", "--no-color", "ok.lua"}, want: "0 warnings / 0 errors", pass: true},
		{name: "shfmt: fi without its if", tools: []string{"shfmt"},
			files: map[string]string{"deploy.sh": "#!/bin/sh\necho deploying\n  echo step\nfi\n"},
			argv:  []string{"shfmt", "-d", "deploy.sh"}, want: "\"fi\" can only be used to end an if"},
		// debuggers and signing
		{name: "gdb -batch: a segfault and its backtrace", tools: []string{"gdb", "gcc"},
			files: map[string]string{"p.c": "#include <stdio.h>\n#include <string.h>\nstatic size_t parse_header(const char *buf) {\n  return strlen(buf);\n}\nint main(void) {\n  puts(\"parsing\");\n  return (int)parse_header(NULL);\n}\n"},
			argv:  []string{"sh", "-c", "gcc -g -O0 -o p p.c && gdb -q -batch -return-child-result -ex run -ex bt ./p"}, want: "in parse_header (buf=0x0) at p.c:4"},
		{name: "gpg --decrypt: data that is not OpenPGP", tools: []string{"gpg"},
			files: map[string]string{"secret.txt.gpg": "this file was never encrypted\n"},
			argv:  []string{"gpg", "--batch", "--decrypt", "secret.txt.gpg"}, want: "no valid OpenPGP data found"},
		// Perl and Ruby tools
		{name: "prove: got and expected of a failed test among files", tools: []string{"prove"},
			files: map[string]string{
				"t/01-load.t":  "use Test::More tests => 3;\nok(1, 'loads');\nok(1, 'config');\nok(1, 'db');\n",
				"t/02-total.t": "use Test::More tests => 2;\nis(1 + 1, 2, 'sum');\nis(100 * 1.1, 121, 'total includes tax');\n",
				"t/03-misc.t":  "use Test::More tests => 2;\nok(1, 'a');\nok(1, 'b');\n"},
			argv: []string{"prove", "t/"}, want: "got: '110'"},
		{name: "prove: a test script that dies", tools: []string{"prove"},
			files: map[string]string{"t/load.t": "use Test::More;\nok(1, 'start');\nmy $cfg = undef;\nprint $cfg->{db}{host}->connect;\ndone_testing;\n"},
			argv:  []string{"prove", "t/"}, want: "Can't call method \"connect\" on an undefined value"},
		{name: "pass: prove with a diagnostic about errors", tools: []string{"prove"},
			files: map[string]string{"t/ok.t": "use Test::More tests => 2;\ndiag('error paths are exercised below');\nok(1, 'error path one');\nok(1, 'error path two');\n"},
			argv:  []string{"prove", "t/"}, want: "Result: PASS", pass: true},
		{name: "rake aborted: the message under the heading", tools: []string{"rake"},
			files: map[string]string{"Rakefile": "task :deploy do\n  puts 'deploying'\n  raise 'database.yml has no production section'\nend\n"},
			argv:  []string{"rake", "deploy"}, want: "database.yml has no production section"},
		{name: "rake: a task that does not exist", tools: []string{"rake"},
			files: map[string]string{"Rakefile": "task :deploy do\n  puts 'deploying'\nend\n"},
			argv:  []string{"rake", "deploi"}, want: "Don't know how to build task 'deploi'"},
		{name: "bundle install --local: a gem that is not installed", tools: []string{"bundle"},
			files: map[string]string{"Gemfile": "source 'https://rubygems.org'\ngem 'nokogirii', '~> 1.15'\n"},
			argv:  []string{"bundle", "install", "--local"}, want: "nokogirii"},
		{name: "composer validate: a name that breaks the pattern", tools: []string{"composer"},
			files: map[string]string{"composer.json": "{\n  \"name\": \"Shop Core\",\n  \"description\": \"shop\",\n  \"license\": \"MIT\",\n  \"require\": {}\n}\n"},
			argv:  []string{"composer", "validate", "--no-check-publish", "--no-interaction"}, want: "name : Does not match the regex pattern"},
		// Node tools from the registry
		{name: "lessc: a variable that is undefined", tools: []string{"lessc"},
			files: map[string]string{"site.less": "@gap: 4px;\n.card {\n  color: @brand-color;\n  margin: @gap;\n}\n"},
			argv:  []string{"lessc", "--no-color", "site.less"}, want: "variable @brand-color is undefined"},
		{name: "sass: an undefined variable with its pointer", tools: []string{"sass"},
			files: map[string]string{"site.scss": "$gap: 4px;\n.card {\n  color: $brand-color;\n  margin: $gap;\n}\n"},
			argv:  []string{"sass", "--no-unicode", "site.scss"}, want: "Undefined variable."},
		{name: "rollup: an import that is not exported", tools: []string{"rollup"},
			files: map[string]string{"src/main.js": "import { formatPrice } from './money.js';\nconsole.log(formatPrice(3));\n", "src/money.js": "export function format(p) { return '$' + p; }\n"},
			argv:  []string{"rollup", "src/main.js", "--file", "out.js", "--format", "es"}, want: "\"formatPrice\" is not exported by \"src/money.js\""},
		{name: "stylelint: an unknown property among warnings", tools: []string{"stylelint"},
			files: map[string]string{".stylelintrc.json": "{\"rules\": {\"property-no-unknown\": true, \"color-hex-length\": [\"short\", {\"severity\": \"warning\"}], \"length-zero-no-unit\": [true, {\"severity\": \"warning\"}]}}\n", "a.css": ".a { color: #ffffff; margin: 0px; }\n.b { colr: red; }\n.c { padding: 0px; }\n"},
			argv:  []string{"stylelint", "--no-color", "a.css"}, want: "Unexpected unknown property \"colr\""},
		{name: "tap: not ok with found and wanted", tools: []string{"tap"},
			setup: [][]string{{"sh", "-c", "ln -s \"$(dirname \"$(dirname \"$(command -v tap)\")\")\" node_modules"}},
			files: map[string]string{"test/total.mjs": "import t from 'tap'\nt.test('cart', async t => {\n  t.equal(1 + 1, 2, 'sum')\n  t.equal(Math.round(100 * 1.1), 121, 'total includes tax')\n})\n"},
			argv:  []string{"tap", "--reporter=tap", "--disable-coverage", "test/total.mjs"}, want: "total includes tax"},
		{name: "ava: an assertion difference among passing tests", tools: []string{"ava"},
			setup: [][]string{{"sh", "-c", "ln -s \"$(dirname \"$(dirname \"$(command -v ava)\")\")\" node_modules"}},
			files: map[string]string{"package.json": "{\"type\": \"module\", \"ava\": {\"files\": [\"test.js\"]}}\n", "test.js": "import test from 'ava';\nfor (let i = 0; i < 6; i++) test(`rule ${i}`, t => t.is(i + 1, i + 1));\ntest('status of a paid order', t => {\n  t.is('draft', 'published');\n});\n"},
			argv:  []string{"ava", "--tap"}, want: "status of a paid order"},
		{name: "markdownlint: heading levels that jump", tools: []string{"markdownlint"},
			files: map[string]string{"README.md": "# Shop\n\n### Install\n\nText.\n"},
			argv:  []string{"markdownlint", "README.md"}, want: "MD001/heading-increment"},
		{name: "ajv validate: a field of the wrong type", tools: []string{"ajv"},
			files: map[string]string{"schema.json": "{\"type\": \"object\", \"properties\": {\"port\": {\"type\": \"integer\"}, \"host\": {\"type\": \"string\"}}, \"required\": [\"host\"]}\n", "cfg.json": "{\"host\": \"db\", \"port\": \"5432\"}\n"},
			argv:  []string{"ajv", "validate", "-s", "schema.json", "-d", "cfg.json"}, want: "must be integer"},
		{name: "webpack: a module that cannot be resolved", tools: []string{"webpack"},
			files: map[string]string{"src/index.js": "import { format } from './utils/format';\nconsole.log(format(1));\n"},
			argv:  []string{"webpack", "--mode", "production", "--no-color"}, want: "Can't resolve './utils/format'"},
		// long logs around the failing tool
		{name: "ci log: erlc error after sixty setup lines", tools: []string{"erlc"},
			files: map[string]string{"queue.erl": "-module(queue2).\n-export([push/2]).\npush(Q, X) -> [X | Q].\n"},
			argv:  noisy(60, "erlc queue.erl"), want: "Module name 'queue2' does not match file name 'queue'"},
		{name: "ci log: ocamlc unbound value after eighty setup lines", tools: []string{"ocamlc"},
			files: map[string]string{"m.ml": "let () = print_endline (strng_of_int 3)\n"},
			argv:  noisy(80, "ocamlc -o m m.ml"), want: "Unbound value strng_of_int"},
		{name: "ci log: protoc import not found after forty setup lines", tools: []string{"protoc"},
			files: map[string]string{"api.proto": "syntax = \"proto3\";\nimport \"common/money.proto\";\nmessage A { string id = 1; }\n"},
			argv:  noisy(40, "protoc --cpp_out=. api.proto"), want: "common/money.proto: File not found."},
		{name: "ci log: xsltproc parse error after fifty setup lines", tools: []string{"xsltproc"},
			files: map[string]string{"r.xsl": "<xsl:stylesheet version=\"1.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\">\n<xsl:template match=\"/\"><a></b></xsl:template>\n</xsl:stylesheet>\n", "d.xml": "<d/>\n"},
			argv:  noisy(50, "xsltproc r.xsl d.xml"), want: "Opening and ending tag mismatch: a line 2 and b"},
		{name: "ci log: nginx -t after thirty setup lines and a teardown", tools: []string{"nginx"},
			files: map[string]string{"site.conf": "server {\n  listen 8080;\n  location / { proxy_pass http://app; }\n  locaton /api { }\n}\n"},
			argv:  noisy(30, "printf 'pid %s/nginx.pid;\\nerror_log stderr;\\nevents {}\\nhttp {\\n include %s/site.conf;\\n}\\n' \"$PWD\" \"$PWD\" > nginx.conf; nginx -t -q -c \"$PWD/nginx.conf\" -e stderr; rc=$?; echo '[ci] collecting logs'; echo '[ci] uploading artifacts'; echo '[ci] cleanup done'; exit $rc"), want: "unknown directive \"locaton\""},
		{name: "pass: ci log with a bison warning and a teardown", tools: []string{"bison"},
			files: map[string]string{"g.y": "%token NUM\n%%\ne: e '+' e | NUM ;\n%%\n"},
			argv:  noisy(40, "bison -Wno-other -o g.c g.y && echo '[ci] grammar built' && echo '[ci] error budget: 0 of 3 used' && echo '[ci] done'"), want: "[ci] grammar built", pass: true},
		// long logs with the cause in the middle
		{name: "ci log: erlc unbound variable between setup and teardown", tools: []string{"erlc"},
			files: map[string]string{"bill.erl": "-module(bill).\n-export([due/1]).\ndue(Items) ->\n    Total = lists:sum(Items),\n    Totl * 2.\n"},
			argv:  noisyAround(25, 25, "erlc bill.erl"), want: "variable 'Totl' is unbound"},
		{name: "ci log: ocamlc unbound module between setup and teardown", tools: []string{"ocamlc"},
			files: map[string]string{"m.ml": "let () = print_endline (Strng.concat \",\" [\"a\"])\n"},
			argv:  noisyAround(30, 20, "ocamlc -o m m.ml"), want: "Unbound module Strng"},
		{name: "ci log: gfortran runtime division error between setup and teardown", tools: []string{"gfortran"},
			files: map[string]string{"avg.f90": "program avg\n  integer :: n, s\n  s = 10\n  n = 0\n  print *, 'averaging'\n  print *, s / n\nend program avg\n"},
			argv:  noisyAround(25, 30, "gfortran -ffpe-trap=zero -o avg avg.f90 && ./avg"), want: "Program received signal SIGFPE: Floating-point exception"},
		{name: "ci log: fpc type mismatch between setup and teardown", tools: []string{"fpc"},
			files: map[string]string{"t.pas": "program t;\nvar n: integer;\nbegin\n  n := 'ten';\n  writeln(n);\nend.\n"},
			argv:  noisyAround(20, 25, "fpc t.pas"), want: "Incompatible types: got \"Constant String\" expected \"SmallInt\""},
		{name: "ci log: sbcl unbound variable between setup and teardown", tools: []string{"sbcl"},
			files: map[string]string{"r.lisp": "(defvar *rate* 20)\n(format t \"rate ~a~%\" *rate*)\n(format t \"total ~a~%\" (* *rat* 3))\n"},
			argv:  noisyAround(25, 25, "sbcl --script r.lisp"), want: "The variable *RAT* is unbound."},
		{name: "ci log: Rscript missing package between setup and teardown", tools: []string{"Rscript"},
			files: map[string]string{"p.R": "cat(\"plotting\\n\")\nlibrary(ggplotx)\n"},
			argv:  noisyAround(30, 25, "Rscript p.R"), want: "there is no package called 'ggplotx'"},
		{name: "ci log: guile misspelt procedure between setup and teardown", tools: []string{"guile"},
			files: map[string]string{"s.scm": "(define (area r) (* 3.14 r r))\n(display (aera 2))\n"},
			argv:  noisyAround(25, 30, "guile --no-auto-compile s.scm"), want: "Unbound variable: aera"},
		{name: "ci log: elixir FunctionClauseError between setup and teardown", tools: []string{"elixir"},
			files: map[string]string{"c.exs": "defmodule Conv do\n  def to_cents(n) when is_integer(n), do: n * 100\nend\nIO.puts(\"converting\")\nIO.puts(Conv.to_cents(\"12\"))\n"},
			argv:  noisyAround(20, 25, "elixir c.exs"), want: "no function clause matching in Conv.to_cents/1"},
		{name: "ci log: dot unknown layout between setup and teardown", tools: []string{"dot"},
			files: map[string]string{"g.dot": "digraph g { a -> b; }\n"},
			argv:  noisyAround(25, 25, "dot -Klayoutx -Tsvg -o g.svg g.dot"), want: "There is no layout engine support for \"layoutx\""},
		{name: "ci log: shfmt unclosed quote between setup and teardown", tools: []string{"shfmt"},
			files: map[string]string{"run.sh": "#!/bin/sh\necho \"starting\nexit 0\n"},
			argv:  noisyAround(30, 25, "shfmt -d run.sh"), want: "reached EOF without closing quote"},
		{name: "ci log: protoc duplicate field number between setup and teardown", tools: []string{"protoc"},
			files: map[string]string{"u.proto": "syntax = \"proto3\";\nmessage User {\n  string id = 1;\n  string email = 1;\n}\n"},
			argv:  noisyAround(20, 30, "protoc --cpp_out=. u.proto"), want: "Field number 1 has already been used"},
		{name: "ci log: prove failure between setup and teardown", tools: []string{"prove"},
			files: map[string]string{"t/a.t": "use Test::More tests => 3;\nok(1, 'one');\nis_deeply([1, 2], [1, 3], 'ids of the batch');\nok(1, 'three');\n"},
			argv:  noisyAround(25, 25, "prove t/"), want: "ids of the batch"},
	}
}
