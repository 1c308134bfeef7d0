package explain

import (
	"crypto/sha256"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The sixth held-out set: real runs of tools that no other set (the
// tuning corpus, the first, third, fourth and fifth held-out sets) holds.
// It was recorded after the fourth and fifth sets had been given to a
// change of the ranking, so that the new rules are measured on tools they
// were never shown. The runs were recorded live and marked by hand from
// what the tools wrote, before explain was run on them, and pinned before
// its score was read; the ranking is never tuned on them. Debian 12
// packages at the versions of heldout6.txt's commit; the Node tools
// installed with exact versions under /opt/h6npm (put its
// node_modules/.bin on PATH for make corpus): html-validate 9.7.1,
// jscpd 5.4.2, peggy 5.1.0, mjml 5.4.1, assemblyscript 0.28.20, wabt
// 1.0.39, oxlint 1.96.0, @hapi/lab 26.0.1 with @hapi/code 9.0.3, nyc
// 18.0.0, sql-formatter 15.10.0, jsdoc 4.0.5, @apidevtools/swagger-cli
// 4.0.4, npm-package-json-lint 11.0.0, alex 11.0.1, pnpm
// 12.26.0, sass-lint 1.13.1.
const heldoutSixthDir = "testdata/heldout6"

// heldoutSixthPin is the SHA-256 of heldout6.txt, pinned when the 120
// runs of 68 tools (107 failures, 45 of them over 20 lines; 13 passing
// runs) were recorded and marked, before explain was run on them and
// before any rule was changed on their account. Its score then (with
// the rules of the fourth set's "after" row, before any rule was changed
// for the fourth or fifth set): explain 99/107 failures (92%) two pipes,
// 99/107 (92%) combined, 13/13 passes, mean 5.9 lines; head -10 + tail
// -10 82/107 (76%), tail -10 74/107, grep|head -4 73/107; over 20 lines
// explain 42/45 against head+tail 20/45.
const heldoutSixthPin = "579f29779feb50640a2c602c20252691f71cebd5d5b4ad84f9c3c2e538a8d02d"

const heldoutSixthList = heldoutSixthDir + "/heldout6.txt"

// TestHeldoutSixthPinned fails when a case of the sixth held-out set,
// its marked line or its kept output changes (-heldout.pin rewrites the
// list).
func TestHeldoutSixthPinned(t *testing.T) {
	want := pinLines(t, heldoutSixthDir, heldoutSixthCases())
	if *heldoutRepin {
		require.NoError(t, os.WriteFile(heldoutSixthList, []byte(want), 0o644))
		t.Logf("pinned: const heldoutSixthPin = %q", fmt.Sprintf("%x", sha256.Sum256([]byte(want))))
		return
	}
	got, err := os.ReadFile(heldoutSixthList)
	require.NoError(t, err)
	require.Equal(t, heldoutSixthPin, fmt.Sprintf("%x", sha256.Sum256(got)), "%s changed after it was pinned", heldoutSixthList)
	require.Equal(t, string(got), want, "the held-out cases or their kept runs differ from %s", heldoutSixthList)
}

func heldoutSixthCases() []corpusCase {
	nm := [][]string{{"sh", "-c", "ln -s \"$(dirname \"$(dirname \"$(command -v lab)\")\")\" node_modules"}}
	kea := func(subnet string) map[string]string {
		return map[string]string{"kea.json": "{\n  \"Dhcp4\": {\n    \"interfaces-config\": { \"interfaces\": [] },\n    \"lease-database\": { \"type\": \"memfile\", \"persist\": false },\n    \"subnet4\": [\n      " + subnet + "\n    ]\n  }\n}\n"}
	}
	sphinx := func(index string) map[string]string {
		return map[string]string{"conf.py": "project = 'shop'\n", "index.rst": index, "usage.rst": "Usage\n=====\n\nRun the shop.\n"}
	}
	mkdocs := func(yml string) map[string]string {
		return map[string]string{"mkdocs.yml": yml, "docs/index.md": "# Shop\n\nThe shop.\n", "docs/install.md": "# Install\n\nInstall it.\n"}
	}
	behave := func(feature, steps string) map[string]string {
		return map[string]string{"features/cart.feature": feature, "features/steps/cart_steps.py": steps}
	}
	cartFeature := "Feature: cart\n  Scenario: total of the cart\n    Given a cart with items priced 1, 2 and 4\n    When I compute the total\n    Then the total is 7\n"
	cartSteps := "from behave import given, when, then\n\n\n@given('a cart with items priced 1, 2 and 4')\ndef step_cart(context):\n    context.items = [1, 2, 4]\n\n\n@when('I compute the total')\ndef step_total(context):\n    context.total = sum(context.items)\n\n\n@then('the total is 7')\ndef step_check(context):\n    assert context.total == 7, 'total was %d' % context.total\n"
	rpmSpec := func(version, build string) string {
		return "Name: shop\n" + version + "Release: 1\nSummary: The shop\nLicense: MIT\n\n%description\nThe shop.\n\n%build\n" + build + "\n\n%install\nmkdir -p %{buildroot}/usr/share/shop\n\n%files\n/usr/share/shop\n"
	}
	return []corpusCase{
		// compilers and interpreters
		{name: "gnatmake: a string given to an integer", tools: []string{"gnatmake"},
			files: map[string]string{"cart.adb": "with Ada.Text_IO; use Ada.Text_IO;\nprocedure Cart is\n   Total : Integer := \"3\";\nbegin\n   Put_Line (Integer'Image (Total));\nend Cart;\n"},
			argv:  []string{"gnatmake", "-q", "cart.adb"}, want: "expected type \"Standard.Integer\""},
		{name: "ci log: gnatmake an undefined name after thirty setup lines", tools: []string{"gnatmake"},
			files: map[string]string{"report.adb": "with Ada.Text_IO; use Ada.Text_IO;\nprocedure Report is\n   Total : Integer := 3;\nbegin\n   Put_Line (Integer'Image (Totl));\nend Report;\n"},
			argv:  noisy(30, "gnatmake -q report.adb"), want: "\"Totl\" is undefined"},
		{name: "a68g: an identifier that is not declared", tools: []string{"a68g"},
			files: map[string]string{"total.a68": "BEGIN\n  INT total := 0;\n  FOR i TO 3 DO totl +:= i OD;\n  print ((total, newline))\nEND\n"},
			argv:  []string{"a68g", "total.a68"}, want: "tag \"totl\" has not been declared properly"},
		{name: "ci log: a68g a division by zero between setup and teardown", tools: []string{"a68g"},
			files: map[string]string{"avg.a68": "BEGIN\n  INT count := 0;\n  print ((\"averaging\", newline));\n  print ((120 OVER count, newline))\nEND\n"},
			argv:  noisyAround(25, 25, "a68g avg.a68"), want: "attempt at INT division by zero"},
		{name: "chez scheme: a variable that is not bound", tools: []string{"scheme"},
			files: map[string]string{"cart.ss": "(define (total items) (apply + items))\n(display \"summing\\n\")\n(display (totl '(1 2 3)))\n"},
			argv:  []string{"scheme", "--script", "cart.ss"}, want: "variable totl is not bound"},
		{name: "ci log: chez scheme car of an empty list after forty setup lines", tools: []string{"scheme"},
			files: map[string]string{"first.ss": "(define (first-item items) (car items))\n(display \"reading the queue\\n\")\n(display (first-item '()))\n"},
			argv:  noisy(40, "scheme --script first.ss"), want: "Exception in car: () is not a pair"},
		{name: "poly: a type error in a declaration", tools: []string{"poly"},
			files: map[string]string{"cart.sml": "val total : int = \"3\";\nval _ = print (Int.toString total);\n"},
			argv:  []string{"poly", "--script", "cart.sml"}, want: "Pattern and expression have incompatible types"},
		{name: "ci log: poly a value that is not declared between setup and teardown", tools: []string{"poly"},
			files: map[string]string{"sum.sml": "fun total xs = foldl op+ 0 xs;\nval _ = print (Int.toString (totl [1, 2, 3]));\n"},
			argv:  noisyAround(25, 25, "poly --script sum.sml"), want: "Value or constructor (totl) has not been declared"},
		{name: "raku -c: a routine that is not declared", tools: []string{"raku"},
			files: map[string]string{"cart.raku": "sub total(@items) { [+] @items }\nsay totl([1, 2, 3]);\n"},
			argv:  []string{"raku", "-c", "cart.raku"}, want: "totl used at line 2"},
		{name: "ci log: raku a method that does not exist between setup and teardown", tools: []string{"raku"},
			files: map[string]string{"cfg.raku": "my @ports = 80, 443;\nsay 'reading config';\nsay @ports.totl;\n"},
			argv:  noisyAround(25, 25, "raku cfg.raku"), want: "No such method 'totl' for invocant of type 'Array'"},
		{name: "pass: raku a script that prints its summary", tools: []string{"raku"}, pass: true,
			files: map[string]string{"ok.raku": "for 1..25 { say \"rule $_ applied\" }\nsay 'failed rules: 0';\nsay 'all rules applied';\n"},
			argv:  []string{"raku", "ok.raku"}, want: "all rules applied"},
		{name: "ksh -n: an if without fi", tools: []string{"ksh"},
			files: map[string]string{"deploy.ksh": "if [[ -n $TARGET ]]; then\n  print deploying\nelse\n  print no target\n"},
			argv:  []string{"ksh", "-n", "deploy.ksh"}, want: "syntax error at line 5: `else' unmatched"},
		{name: "ci log: ksh a command not found after thirty setup lines", tools: []string{"ksh"},
			files: map[string]string{"release.ksh": "set -e\nprint 'tagging release'\nrelase_notes --since v1.2\nprint done\n"},
			argv:  noisy(30, "ksh release.ksh"), want: "relase_notes: not found"},
		// generators of code
		{name: "re2c: a character class that is not closed", tools: []string{"re2c"},
			files: map[string]string{"lexer.re": "int lex(const char *YYCURSOR) {\n    const char *YYMARKER;\n    /*!re2c\n    re2c:define:YYCTYPE = char;\n    re2c:yyfill:enable = 0;\n    [0-9]+ { return 1; }\n    [a-z { return 2; }\n    * { return 0; }\n    */\n}\n"},
			argv:  []string{"re2c", "lexer.re", "-o", "lexer.c"}, want: "newline in character class"},
		{name: "ci log: re2c a definition that is not defined between setup and teardown", tools: []string{"re2c"},
			files: map[string]string{"num.re": "int lex(const char *YYCURSOR) {\n    const char *YYMARKER;\n    /*!re2c\n    re2c:define:YYCTYPE = char;\n    re2c:yyfill:enable = 0;\n    digit = [0-9];\n    digitt+ { return 1; }\n    * { return 0; }\n    */\n}\n"},
			argv:  noisyAround(25, 25, "re2c num.re -o num.c"), want: "undefined symbol 'digitt'"},
		{name: "ragel: a parenthesis that is not closed", tools: []string{"ragel"},
			files: map[string]string{"price.rl": "%%{\n  machine price;\n  main := ( digit+ '.' digit+ ;\n}%%\n"},
			argv:  []string{"ragel", "price.rl", "-o", "price.c"}, want: "at token \";\": parse error"},
		{name: "gperf: two keywords that are the same", tools: []string{"gperf"},
			files: map[string]string{"keywords.gperf": "%%\napple\npear\nplum\napple\n%%\n"},
			argv:  []string{"sh", "-c", "gperf keywords.gperf > keywords.c"}, want: "Key link: \"apple\" = \"apple\""},
		{name: "swig: a declaration that is not closed", tools: []string{"swig"},
			files: map[string]string{"shop.i": "%module shop\n%{\n#include \"shop.h\"\n%}\nint total(int a, int b\nint count(void);\n"},
			argv:  []string{"swig", "-python", "shop.i"}, want: "shop.i:6: Error: Syntax error in input(1)."},
		{name: "ci log: swig an include that is not found after thirty setup lines", tools: []string{"swig"},
			files: map[string]string{"cart.i": "%module cart\n%include \"cart_types.h\"\n"},
			argv:  noisy(30, "swig -python cart.i"), want: "Unable to find 'cart_types.h'"},
		{name: "byacc: an action that is not terminated", tools: []string{"byacc"},
			files: map[string]string{"calc.y": "%token NUM\n%%\nexpr : expr '+' NUM { $$ = $1 + $3;\n     | NUM\n     ;\n%%\n"},
			argv:  []string{"byacc", "calc.y"}, want: "unterminated action"},
		{name: "ci log: byacc a start symbol that is not defined between setup and teardown", tools: []string{"byacc"},
			files: map[string]string{"list.y": "%token ITEM\n%start prog\n%%\nlist : list ITEM\n     | ITEM\n     ;\n%%\n"},
			argv:  noisyAround(25, 25, "byacc list.y"), want: "the start symbol prog is undefined"},
		{name: "flatc: a type that is not defined", tools: []string{"flatc"},
			files: map[string]string{"shop.fbs": "namespace Shop;\ntable Item {\n  name: string;\n  price: Money;\n}\nroot_type Item;\n"},
			argv:  []string{"flatc", "--cpp", "shop.fbs"}, want: "type referenced but not defined (check namespace): Money"},
		{name: "ci log: flatc a JSON field that is not in the schema after forty setup lines", tools: []string{"flatc"},
			files: map[string]string{"item.fbs": "table Item {\n  name: string;\n  price: int;\n}\nroot_type Item;\n", "item.json": "{\n  name: \"apple\",\n  prise: 3\n}\n"},
			argv:  noisy(40, "flatc -b item.fbs item.json"), want: "unknown field: prise"},
		{name: "pass: flatc a schema that compiles", tools: []string{"flatc"}, pass: true,
			files: map[string]string{"ok.fbs": "table Ok {\n  errors: int;\n}\nroot_type Ok;\n"},
			argv:  []string{"sh", "-c", "flatc --cpp ok.fbs && echo \"generated: $(ls *_generated.h)\""}, want: "generated: ok_generated.h"},
		{name: "thrift: a field without a colon", tools: []string{"thrift"},
			files: map[string]string{"shop.thrift": "struct Item {\n  1: string name\n  2: i32 price,\n  3 list<string> tags\n}\n"},
			argv:  []string{"thrift", "--gen", "py", "shop.thrift"}, want: "shop.thrift:4] (last token was 'list')"},
		{name: "ci log: thrift a type that is not defined between setup and teardown", tools: []string{"thrift"},
			files: map[string]string{"cart.thrift": "struct Item {\n  1: string name\n}\nstruct Cart {\n  1: list<Itemm> items\n}\n"},
			argv:  noisyAround(25, 25, "thrift --gen py cart.thrift"), want: "Type \"Itemm\" not defined"},
		{name: "capnp compile: a file without an ID", tools: []string{"capnp"},
			files: map[string]string{"shop.capnp": "struct Item {\n  name @0 :Text;\n  price @1 :Int32;\n}\n"},
			argv:  []string{"sh", "-c", "capnp compile -o- shop.capnp > /dev/null"}, want: "File does not declare an ID"},
		{name: "ci log: capnp compile a type that is not defined after thirty setup lines", tools: []string{"capnp"},
			files: map[string]string{"cart.capnp": "@0xbf5147cbbecf40c1;\nstruct Cart {\n  total @0 :Money;\n}\n"},
			argv:  noisy(30, "capnp compile -o- cart.capnp > /dev/null"), want: "Not defined: Money"},
		{name: "iasl: a parenthesis that is not closed", tools: []string{"iasl"},
			files: map[string]string{"dsdt.asl": "DefinitionBlock (\"\", \"DSDT\", 2, \"SHOP\", \"CART\", 1)\n{\n    Name (TOTL, 3\n    Name (CNT, 1)\n}\n"},
			argv:  []string{"iasl", "dsdt.asl"}, want: "Error    6126"},
		{name: "ci log: iasl an object that does not exist between setup and teardown", tools: []string{"iasl"},
			files: map[string]string{"ssdt.asl": "DefinitionBlock (\"\", \"SSDT\", 2, \"SHOP\", \"CART\", 1)\n{\n    Method (TOTL, 0)\n    {\n        Return (CNTX)\n    }\n}\n"},
			argv:  noisyAround(25, 25, "iasl ssdt.asl"), want: "Object does not exist (CNTX)"},
		{name: "verilator --lint-only: a signal that is not declared", tools: []string{"verilator"},
			files: map[string]string{"counter.v": "module counter(input clk, output reg [3:0] q);\n  always @(posedge clk) q <= qq + 1;\nendmodule\n"},
			argv:  []string{"verilator", "--lint-only", "counter.v"}, want: "Can't find definition of variable: 'qq'"},
		{name: "ci log: verilator --lint-only -Wall a width mismatch after forty setup lines", tools: []string{"verilator"},
			files: map[string]string{"acc.v": "module acc(input clk, input [7:0] d, output reg [3:0] q);\n  always @(posedge clk) q <= d;\nendmodule\n"},
			argv:  noisy(40, "verilator --lint-only -Wall acc.v"), want: "%Warning-WIDTH: acc.v:2:27"},
		{name: "yosys -q: a syntax error", tools: []string{"yosys"},
			files: map[string]string{"top.v": "module top(input a, output b)\n  assign b = ~a;\nendmodule\n"},
			argv:  []string{"yosys", "-q", "-p", "read_verilog top.v; synth -top top"}, want: "syntax error, unexpected TOK_ASSIGN"},
		{name: "yosys: a top module that does not exist in a full log", tools: []string{"yosys"},
			files: map[string]string{"alu.v": "module alu(input [3:0] a, input [3:0] b, output [3:0] y);\n  assign y = a + b;\nendmodule\n"},
			argv:  []string{"yosys", "-p", "read_verilog alu.v; synth -top aluu"}, want: "Module `aluu' not found"},
		{name: "pass: yosys synth of a small module", tools: []string{"yosys"}, pass: true,
			files: map[string]string{"inv.v": "module inv(input a, output b);\n  assign b = ~a;\nendmodule\n"},
			argv:  []string{"yosys", "-p", "read_verilog inv.v; synth -top inv"}, want: "End of script"},
		// server and system configuration
		{name: "nsd-checkconf: an option that is not known", tools: []string{"nsd-checkconf"},
			files: map[string]string{"nsd.conf": "server:\n  port: 5353\n  verbosty: 2\n"},
			argv:  []string{"nsd-checkconf", "nsd.conf"}, want: "nsd.conf:3: at 'verbosty:': error: syntax error"},
		{name: "ci log: nsd-checkzone a record with a bad address after thirty setup lines", tools: []string{"nsd-checkzone"},
			files: map[string]string{"shop.zone": "$ORIGIN shop.example.\n$TTL 3600\n@ IN SOA ns1 admin 1 7200 3600 1209600 3600\n@ IN NS ns1\nns1 IN A 10.0.0.1\nwww IN A 10.0.0.300\n"},
			argv:  noisy(30, "nsd-checkzone shop.example shop.zone"), want: "invalid IPv4 address '10.0.0.300'"},
		{name: "kea-dhcp4 -t: a comma that is missing", tools: []string{"kea-dhcp4"},
			files: map[string]string{"kea.json": "{\n  \"Dhcp4\": {\n    \"interfaces-config\": { \"interfaces\": [] }\n    \"lease-database\": { \"type\": \"memfile\", \"persist\": false }\n  }\n}\n"},
			argv:  []string{"kea-dhcp4", "-t", "kea.json"}, want: "syntax error, unexpected lease-database"},
		{name: "ci log: kea-dhcp4 -t a pool outside its subnet between setup and teardown", tools: []string{"kea-dhcp4"},
			files: kea("{ \"id\": 1, \"subnet\": \"10.0.0.0/24\", \"pools\": [ { \"pool\": \"10.0.1.10 - 10.0.1.50\" } ] }"),
			argv:  noisyAround(25, 25, "kea-dhcp4 -t kea.json"), want: "does not match the prefix of a subnet"},
		{name: "pass: kea-dhcp4 -t of a valid config", tools: []string{"kea-dhcp4"}, pass: true,
			files: kea("{ \"id\": 1, \"subnet\": \"10.0.0.0/24\", \"pools\": [ { \"pool\": \"10.0.0.10 - 10.0.0.50\" } ] }"),
			argv:  []string{"sh", "-c", "kea-dhcp4 -t kea.json && echo 'kea config check passed'"}, want: "kea config check passed"},
		{name: "keepalived -t: a state that is not known", tools: []string{"keepalived"},
			files: map[string]string{"keepalived.conf": "vrrp_instance VI_1 {\n    state MASTR\n    interface lo\n    virtual_router_id 51\n    priority 100\n    virtual_ipaddress {\n        10.0.0.100\n    }\n}\n"},
			argv:  []string{"keepalived", "-t", "-n", "-l", "-f", "keepalived.conf"}, want: "unknown state 'MASTR'"},
		{name: "bird -p: a brace where a semicolon belongs", tools: []string{"bird"},
			files: map[string]string{"bird.conf": "router id 10.0.0.1;\nprotocol device {\n  scan time 10\n}\n"},
			argv:  []string{"bird", "-p", "-c", "bird.conf"}, want: "bird.conf:4:1 syntax error"},
		{name: "ci log: bird -p a protocol that is not known after forty setup lines", tools: []string{"bird"},
			files: map[string]string{"bird.conf": "router id 10.0.0.1;\nprotocol device {\n}\nprotocol bgpp peer1 {\n  local as 65001;\n}\n"},
			argv:  noisy(40, "bird -p -c bird.conf"), want: "bird.conf:4:10 syntax error"},
		{name: "pass: ci log: bird -p of a valid config after thirty setup lines", tools: []string{"bird"}, pass: true,
			files: map[string]string{"bird.conf": "router id 10.0.0.1;\nprotocol device {\n  scan time 10;\n}\n"},
			argv:  noisy(30, "bird -p -c bird.conf && echo 'bird config parsed'"), want: "bird config parsed"},
		{name: "monit -t: a control file that others can read", tools: []string{"monit"},
			files: map[string]string{"monitrc": "set daemon 30\ncheck process shop with pidfile /run/shop.pid\n"},
			argv:  []string{"monit", "-t", "-c", "monitrc"}, want: "permission 0644 is wrong"},
		{name: "ci log: monit -t a syntax error between setup and teardown", tools: []string{"monit"},
			files: map[string]string{"monitrc": "set daemon thirty\ncheck process shop with pidfile /run/shop.pid\n"},
			setup: [][]string{{"chmod", "600", "monitrc"}},
			argv:  noisyAround(25, 25, "monit -t -c monitrc"), want: "syntax error 'thirty'"},
		{name: "amtool check-config: a receiver that is not defined", tools: []string{"amtool"},
			files: map[string]string{"alertmanager.yml": "route:\n  receiver: pager\nreceivers:\n  - name: email\n"},
			argv:  []string{"amtool", "check-config", "alertmanager.yml"}, want: "undefined receiver \"pager\" used in route"},
		{name: "ci log: amtool check-config bad YAML after thirty setup lines", tools: []string{"amtool"},
			files: map[string]string{"am.yml": "route:\n  receiver: email\n   group_wait: 30s\nreceivers:\n  - name: email\n"},
			argv:  noisy(30, "amtool check-config am.yml"), want: "mapping values are not allowed in this context"},
		{name: "caddy validate: a directive that is not known", tools: []string{"caddy"},
			files: map[string]string{"Caddyfile": "localhost:8080 {\n  respnd \"hello\"\n}\n"},
			argv:  []string{"caddy", "validate", "--config", "Caddyfile", "--adapter", "caddyfile"}, want: "unrecognized directive: respnd"},
		{name: "ci log: caddy adapt an encoding that is not known between setup and teardown", tools: []string{"caddy"},
			files: map[string]string{"Caddyfile": "localhost:8081 {\n  root * /srv/shop\n  encode gzipp\n  file_server\n}\n"},
			argv:  noisyAround(25, 25, "caddy adapt --config Caddyfile --adapter caddyfile"), want: "module not registered: http.encoders.gzipp"},
		{name: "apparmor_parser -Q: a rule without its comma", tools: []string{"apparmor_parser"},
			files: map[string]string{"usr.bin.shop": "/usr/bin/shop {\n  /etc/shop.conf r,\n  /var/lib/shop/** rw\n}\n"},
			argv:  []string{"apparmor_parser", "-Q", "-K", "usr.bin.shop"}, want: "syntax error, unexpected TOK_CLOSE"},
		{name: "ci log: apparmor_parser -Q a permission that is not known after forty setup lines", tools: []string{"apparmor_parser"},
			files: map[string]string{"usr.bin.cart": "/usr/bin/cart {\n  /etc/cart.conf rq,\n}\n"},
			argv:  noisy(40, "apparmor_parser -Q -K usr.bin.cart"), want: "unexpected TOK_ID, expecting TOK_MODE"},
		// data and document tools
		{name: "mlr: a data line shorter than the header", tools: []string{"mlr"},
			files: map[string]string{"items.csv": "name,price,qty\napple,3,2\npear,4\nplum,1,5\n"},
			argv:  []string{"mlr", "--icsv", "--ojson", "cat", "items.csv"}, want: "CSV header/data length mismatch 3 != 2"},
		{name: "ci log: mlr a DSL expression that does not parse between setup and teardown", tools: []string{"mlr"},
			files: map[string]string{"items.csv": "name,price,qty\napple,3,2\npear,4,1\n"},
			argv:  noisyAround(25, 25, "mlr --icsv --opprint put '$total = $price * $qty +' items.csv"), want: "Parse error on token \"\" at line 1 column 25"},
		{name: "pass: mlr a sum of a column", tools: []string{"mlr"}, pass: true,
			files: map[string]string{"items.csv": "name,price,qty\napple,3,2\npear,4,1\n"},
			argv:  []string{"mlr", "--icsv", "--opprint", "stats1", "-a", "sum", "-f", "price", "items.csv"}, want: "price_sum"},
		{name: "csvsql: a column that does not exist", tools: []string{"csvsql"},
			files: map[string]string{"items.csv": "name,price\napple,3\npear,4\n"},
			argv:  []string{"csvsql", "--query", "select totl from items", "items.csv"}, want: "no such column: totl"},
		{name: "sphinx-build -W: a toctree entry that does not exist", tools: []string{"sphinx-build"},
			files: sphinx("Shop\n====\n\n.. toctree::\n\n   usage\n   instal\n"),
			argv:  []string{"sphinx-build", "-W", "-b", "html", ".", "_build"}, want: "toctree contains reference to nonexisting document 'instal'"},
		{name: "ci log: sphinx-build -W a directive that is not known between setup and teardown", tools: []string{"sphinx-build"},
			files: sphinx("Shop\n====\n\n.. toctree::\n\n   usage\n\n.. notee::\n\n   Read this first.\n"),
			argv:  noisyAround(25, 25, "sphinx-build -W -b html . _build"), want: "Unknown directive type \"notee\""},
		{name: "pass: sphinx-build of clean docs", tools: []string{"sphinx-build"}, pass: true,
			files: sphinx("Shop\n====\n\n.. toctree::\n\n   usage\n"),
			argv:  []string{"sphinx-build", "-b", "html", ".", "_build"}, want: "build succeeded"},
		{name: "mkdocs build --strict: a nav entry that does not exist", tools: []string{"mkdocs"},
			files: mkdocs("site_name: Shop\nnav:\n  - Home: index.md\n  - Install: instal.md\n"),
			argv:  []string{"mkdocs", "build", "--strict"}, want: "A relative path to 'instal.md' is included in the 'nav' configuration"},
		{name: "ci log: mkdocs build a theme that is not known after thirty setup lines", tools: []string{"mkdocs"},
			files: mkdocs("site_name: Shop\ntheme: materiall\n"),
			argv:  noisy(30, "mkdocs build --strict"), want: "TypeError: string indices must be integers"},
		{name: "hugo: a template action that is not closed", tools: []string{"hugo"},
			files: map[string]string{"hugo.toml": "baseURL = 'http://example.org/'\ntitle = 'Shop'\n", "layouts/index.html": "<ul>{{ range .Site.RegularPages }}<li>{{ .Title }}</li>{{ end }</ul>\n", "content/apple.md": "---\ntitle: Apple\n---\nAn apple.\n"},
			argv:  []string{"hugo", "--destination", "public"}, want: "unexpected \"}\" in end"},
		{name: "ci log: hugo a theme that does not exist between setup and teardown", tools: []string{"hugo"},
			files: map[string]string{"hugo.toml": "baseURL = 'http://example.org/'\ntitle = 'Shop'\ntheme = 'shopfront'\n", "content/pear.md": "---\ntitle: Pear\n---\nA pear.\n"},
			argv:  noisyAround(25, 25, "hugo --destination public"), want: "module \"shopfront\" not found"},
		{name: "asciidoc: a listing block that is not closed", tools: []string{"asciidoc"},
			files: map[string]string{"guide.txt": "Shop guide\n==========\n\nInstall it:\n\n----\nmake install\n\nUse the shop.\n"},
			// Debian's asciidoc runs with Debian's python3, not another one first on PATH
			argv: []string{"sh", "-c", "PATH=/usr/bin:$PATH asciidoc -o guide.html guide.txt"}, want: "[blockdef-listing] missing closing delimiter"},
		{name: "onsgmls -s: an element the DTD does not allow", tools: []string{"onsgmls"},
			files: map[string]string{"note.sgml": "<!DOCTYPE note [\n<!ELEMENT note - - (to, body)>\n<!ELEMENT to - - (#PCDATA)>\n<!ELEMENT body - - (#PCDATA)>\n]>\n<note>\n<to>Shop</to>\n<from>Cart</from>\n<body>Ship it</body>\n</note>\n"},
			argv:  []string{"onsgmls", "-s", "note.sgml"}, want: "element \"FROM\" undefined"},
		{name: "qpdf --check: a PDF without a cross-reference table", tools: []string{"qpdf"},
			files: map[string]string{"invoice.pdf": "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"},
			argv:  []string{"qpdf", "--check", "invoice.pdf"}, want: "file is damaged"},
		{name: "gs: an operator that is not defined", tools: []string{"gs"},
			files: map[string]string{"label.ps": "%!PS\n/Helvetica findfont 12 scalefont setfont\n72 720 moveto\n(Shop label) show\ntotl\nshowpage\n"},
			argv:  []string{"gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=nullpage", "label.ps"}, want: "Error: /undefined in totl"},
		{name: "ci log: gs a type check between setup and teardown", tools: []string{"gs"},
			files: map[string]string{"price.ps": "%!PS\n/price (3) def\n/qty 2 def\nprice qty mul\n==\n"},
			argv:  noisyAround(25, 25, "gs -q -dNOPAUSE -dBATCH -dSAFER -sDEVICE=nullpage price.ps"), want: "Error: /typecheck in --mul--"},
		{name: "pngcheck: a PNG whose header checksum is wrong", tools: []string{"pngcheck"},
			files: map[string]string{"logo.png": "\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00IEND\xaeB`\x82"},
			argv:  []string{"pngcheck", "logo.png"}, want: "CRC error in chunk IHDR"},
		{name: "certtool --certificate-info: a certificate that is not base64", tools: []string{"certtool"},
			files: map[string]string{"shop.pem": "-----BEGIN CERTIFICATE-----\nMIIB!!not*base64\n-----END CERTIFICATE-----\n"},
			argv:  []string{"certtool", "--certificate-info", "--infile", "shop.pem"}, want: "Base64 unexpected header error"},
		{name: "ci log: 7z t an archive that is not an archive after thirty setup lines", tools: []string{"7z"},
			files: map[string]string{"release.7z": "this is a text file named like an archive\n"},
			argv:  noisy(30, "7z t release.7z"), want: "Cannot open the file as [7z] archive"},
		{name: "yq: YAML with a bad indentation", tools: []string{"yq"},
			files: map[string]string{"deploy.yaml": "service:\n  name: shop\n   port: 8080\n"},
			argv:  []string{"yq", ".service.port", "deploy.yaml"}, want: "ScannerError: mapping values are not allowed in this context"},
		// test runners
		{name: "behave: an assertion that fails", tools: []string{"behave"},
			files: behave(cartFeature, strings.Replace(cartSteps, "context.items = [1, 2, 4]", "context.items = [1, 2, 5]", 1)),
			argv:  []string{"behave", "--no-color", "--no-capture"}, want: "Assertion Failed: total was 8"},
		{name: "ci log: behave a step that is not defined between setup and teardown", tools: []string{"behave"},
			files: behave(strings.Replace(cartFeature, "When I compute the total", "When I compute the total with tax", 1), cartSteps),
			argv:  noisyAround(25, 25, "behave --no-color"), want: "I compute the total with tax"},
		{name: "pass: behave a feature that passes", tools: []string{"behave"}, pass: true,
			files: behave(cartFeature, cartSteps),
			argv:  []string{"behave", "--no-color"}, want: "1 scenario passed"},
		{name: "kyua test: a plain test program that fails", tools: []string{"kyua"},
			files: map[string]string{"Kyuafile": "syntax(2)\ntest_suite('shop')\nplain_test_program{name='cart_test'}\nplain_test_program{name='name_test'}\n", "cart_test": "#!/bin/sh\necho 'total: expected 6, got 7'\nexit 1\n", "name_test": "#!/bin/sh\nexit 0\n"},
			setup: [][]string{{"chmod", "+x", "cart_test", "name_test"}},
			argv:  []string{"kyua", "--config=none", "test", "--results-file=results.db"}, want: "cart_test:main  ->  failed"},
		{name: "lab: an expectation that fails", tools: []string{"lab"},
			setup: nm,
			files: map[string]string{"test/cart.js": "const Code = require('@hapi/code');\nconst Lab = require('@hapi/lab');\nconst { expect } = Code;\nconst { it, describe } = exports.lab = Lab.script();\ndescribe('cart', () => {\n  it('totals the items', () => { expect(1 + 2 + 4).to.equal(6); });\n  it('names the shop', () => { expect('shop').to.equal('shop'); });\n});\n"},
			argv:  []string{"lab"}, want: "Expected 7 to equal specified value: 6"},
		{name: "ci log: lab an exception in a test between setup and teardown", tools: []string{"lab"},
			setup: nm,
			files: map[string]string{"test/cfg.js": "const Lab = require('@hapi/lab');\nconst { it } = exports.lab = Lab.script();\nit('reads the port', () => { const cfg = undefined; return cfg.port; });\n"},
			argv:  noisyAround(25, 25, "lab"), want: "Cannot read properties of undefined (reading 'port')"},
		{name: "pass: lab tests that all pass", tools: []string{"lab"}, pass: true,
			setup: nm,
			files: map[string]string{"test/ok.js": "const Code = require('@hapi/code');\nconst Lab = require('@hapi/lab');\nconst { it } = exports.lab = Lab.script();\nit('counts no errors', () => { Code.expect(0).to.equal(0); });\n"},
			argv:  []string{"lab"}, want: "1 tests complete"},
		{name: "ci log: nyc --check-coverage lines below the threshold after thirty setup lines", tools: []string{"nyc"},
			files: map[string]string{"lib.js": "exports.a = () => {\n  return 1\n}\nexports.b = (x) => {\n  const y = x * 2\n  return y + 1\n}\n", "run.js": "require('./lib').a()\n"},
			argv:  noisy(30, "nyc --check-coverage --lines 95 --reporter text node run.js"), want: "Coverage for lines (66.66%) does not meet global threshold (95%)"},
		// database and cache clients
		{name: "mariadb: a server that does not answer", tools: []string{"mariadb"},
			argv: []string{"mariadb", "--no-defaults", "-h", "127.0.0.1", "-P", "1", "-u", "shop", "-e", "select count(*) from orders"}, want: "Can't connect to server on '127.0.0.1'"},
		{name: "ci log: mariadb a migration against a server that does not answer between setup and teardown", tools: []string{"mariadb"},
			files: map[string]string{"migrate.sql": "create table orders (id int primary key, total int);\n"},
			argv:  noisyAround(25, 25, "mariadb --no-defaults -h 127.0.0.1 -P 2 -u shop shop < migrate.sql"), want: "Can't connect to server on '127.0.0.1'"},
		{name: "redis-cli: a server that does not answer", tools: []string{"redis-cli"},
			argv: []string{"redis-cli", "-p", "1", "get", "cart:42"}, want: "Could not connect to Redis at 127.0.0.1:1: Connection refused"},
		{name: "sql-formatter: a query that does not parse", tools: []string{"sql-formatter"},
			files: map[string]string{"report.sql": "select name, sum(price from orders group by name;\n"},
			argv:  []string{"sql-formatter", "-l", "postgresql", "report.sql"}, want: "Parse error at token: ; at line 1 column 49"},
		// package and release tools
		{name: "twine check: a long description that does not render", tools: []string{"twine"},
			files: map[string]string{"setup.py": "from setuptools import setup\nsetup(name='shop', version='1.0', long_description='Shop\\n====\\n\\n.. image:: \\n   :bad-option: yes\\n\\n`unclosed\\n', long_description_content_type='text/x-rst')\n"},
			setup: [][]string{{"python3", "setup.py", "-q", "sdist"}},
			argv:  []string{"twine", "check", "--strict", "dist/shop-1.0.tar.gz"}, want: "line 4: Error: Error in \"image\" directive"},
		{name: "ci log: tox a module that is not installed between setup and teardown", tools: []string{"tox"},
			files: map[string]string{"tox.ini": "[tox]\nskipsdist = true\nenvlist = py\n\n[testenv]\nskip_install = true\ncommands = python -c \"import shop_client; print(shop_client.VERSION)\"\n"},
			argv:  noisyAround(25, 25, "tox -e py"), want: "ModuleNotFoundError: No module named 'shop_client'"},
		{name: "pass: tox an environment that passes", tools: []string{"tox"}, pass: true,
			files: map[string]string{"tox.ini": "[tox]\nskipsdist = true\nenvlist = py\n\n[testenv]\nskip_install = true\ncommands = python -c \"print('errors: 0')\"\n"},
			argv:  []string{"tox", "-e", "py"}, want: "congratulations"},
		{name: "rpmbuild: a spec without a version", tools: []string{"rpmbuild"},
			files: map[string]string{"shop.spec": rpmSpec("", "true")},
			argv:  []string{"rpmbuild", "--define", "_topdir %(pwd)/rpm", "-bb", "shop.spec"}, want: "Version field must be present"},
		{name: "ci log: rpmbuild a build command that is not found after thirty setup lines", tools: []string{"rpmbuild"},
			files: map[string]string{"cart.spec": strings.Replace(rpmSpec("Version: 1.0\n", "shop-gen --out assets"), "Name: shop", "Name: cart", 1)},
			argv:  noisy(30, "rpmbuild --define \"_topdir $PWD/rpm\" --nodeps -bb cart.spec"), want: "shop-gen: not found"},
		{name: "rpmlint: a spec with a bad changelog date", tools: []string{"rpmlint"},
			files: map[string]string{"shop.spec": "Name: shop\nVersion: 1.0\nRelease: 1\nSummary: the shop.\nLicense: MIT\n\n%description\nThe shop.\n\n%files\n\n%changelog\n* Mon Jan 40 2025 Shop <shop@example.com> - 1.0-1\n- first release\n"},
			argv:  []string{"rpmlint", "shop.spec"}, want: "bad date in %changelog"},
		{name: "pnpm install: a package.json that is not JSON", tools: []string{"pnpm"},
			files: map[string]string{"package.json": "{\n  \"name\": \"shop\",\n  \"version\": \"1.0.0\",\n  \"scripts\": { \"build\": \"node build.js\" },\n}\n"},
			argv:  []string{"pnpm", "install", "--offline"}, want: "trailing comma at line 5 column 1"},
		{name: "ci log: pnpm install a package not in the store between setup and teardown", tools: []string{"pnpm"},
			files: map[string]string{"package.json": "{\n  \"name\": \"cart\",\n  \"version\": \"1.0.0\",\n  \"dependencies\": { \"left-pad\": \"1.3.0\" }\n}\n"},
			argv:  noisyAround(25, 25, "pnpm install --offline --store-dir store"), want: "Failed to resolve left-pad@1.3.0"},
		{name: "npmPkgJsonLint: a package name with capitals", tools: []string{"npmPkgJsonLint"},
			files: map[string]string{"package.json": "{\n  \"name\": \"ShopCart\",\n  \"version\": \"1.0.0\",\n  \"description\": \"the cart\"\n}\n", ".npmpackagejsonlintrc.json": "{\n  \"rules\": {\n    \"name-format\": \"error\",\n    \"require-license\": \"error\"\n  }\n}\n"},
			argv:  []string{"npmPkgJsonLint", "."}, want: "ERROR name-format"},
		{name: "reuse lint: a file without licensing information", tools: []string{"reuse"},
			files: map[string]string{"cart.py": "def total(items):\n    return sum(items)\n", "LICENSES/MIT.txt": "MIT License\n", "shop.py": "# SPDX-FileCopyrightText: 2025 Shop\n# SPDX-License-Identifier: MIT\nNAME = 'shop'\n"},
			argv:  []string{"reuse", "lint"}, want: "licensing-information/cart.py"},
		{name: "dpkg-checkbuilddeps: a build dependency that is not installed", tools: []string{"dpkg-checkbuilddeps"},
			files: map[string]string{"debian/control": "Source: shop\nSection: misc\nPriority: optional\nMaintainer: Shop <shop@example.com>\nBuild-Depends: debhelper-compat (= 13), libshopcart-dev\nStandards-Version: 4.6.2\n\nPackage: shop\nArchitecture: any\nDescription: the shop\n The shop.\n"},
			argv:  []string{"dpkg-checkbuilddeps"}, want: "Unmet build dependencies: libshopcart-dev"},
		// linters
		{name: "vulture: a function that is never used", tools: []string{"vulture"},
			files: map[string]string{"cart.py": "def total(items):\n    return sum(items)\n\n\ndef old_total(items):\n    return 0\n\n\nprint(total([1, 2]))\n"},
			argv:  []string{"vulture", "cart.py"}, want: "unused function 'old_total'"},
		{name: "ci log: vulture an import that is never used after forty setup lines", tools: []string{"vulture"},
			files: map[string]string{"cfg.py": "import os\nimport json\n\nprint(json.dumps({'port': 8080}))\n"},
			argv:  noisy(40, "vulture cfg.py"), want: "unused import 'os'"},
		{name: "pass: vulture of a module with no dead code", tools: []string{"vulture"}, pass: true,
			files: map[string]string{"ok.py": "def total(items):\n    return sum(items)\n\n\nprint(total([1, 2]))\n"},
			argv:  []string{"sh", "-c", "vulture ok.py && echo 'no dead code found'"}, want: "no dead code found"},
		{name: "puppet-lint: a string in double quotes with no variable", tools: []string{"puppet-lint"},
			files: map[string]string{"init.pp": "class shop {\n  package { \"shop\":\n    ensure => installed,\n  }\n}\n"},
			argv:  []string{"puppet-lint", "--fail-on-warnings", "init.pp"}, want: "ERROR: shop not in autoload module layout"},
		{name: "ci log: puppet-lint an ensure that is not first between setup and teardown", tools: []string{"puppet-lint"},
			files: map[string]string{"cart.pp": "class cart {\n  file { '/etc/cart.conf':\n    owner  => 'root',\n    ensure => file,\n  }\n}\n"},
			argv:  noisyAround(25, 25, "puppet-lint --fail-on-warnings cart.pp"), want: "ERROR: cart not in autoload module layout"},
		{name: "oxlint: a variable that is never used", tools: []string{"oxlint"},
			files: map[string]string{"cart.js": "export function total(items) {\n  const unused = 1;\n  return items.length;\n}\n"},
			argv:  []string{"oxlint", "--deny-warnings", "cart.js"}, want: "Variable 'unused' is declared but never used"},
		{name: "ci log: oxlint a debugger statement after forty setup lines", tools: []string{"oxlint"},
			files: map[string]string{"cfg.js": "export function port(cfg) {\n  debugger;\n  return cfg.port;\n}\n"},
			argv:  noisy(40, "oxlint --deny-warnings cfg.js"), want: "eslint(no-debugger): `debugger` statement is not allowed"},
		{name: "html-validate: an element where it is not allowed", tools: []string{"html-validate"},
			files: map[string]string{"index.html": "<!DOCTYPE html>\n<html lang=\"en\">\n<head><title>Shop</title></head>\n<body>\n<div>\n<li>apple</li>\n</div>\n</body>\n</html>\n"},
			argv:  []string{"html-validate", "index.html"}, want: "<li> element is not permitted as content under <div>"},
		{name: "ci log: html-validate an id used twice between setup and teardown", tools: []string{"html-validate"},
			files: map[string]string{"cart.html": "<!DOCTYPE html>\n<html lang=\"en\">\n<head><title>Cart</title></head>\n<body>\n<p id=\"total\">3</p>\n<p id=\"total\">4</p>\n</body>\n</html>\n"},
			argv:  noisyAround(25, 25, "html-validate cart.html"), want: "Duplicate ID \"total\""},
		{name: "pass: html-validate of a valid page", tools: []string{"html-validate"}, pass: true,
			files: map[string]string{"ok.html": "<!DOCTYPE html>\n<html lang=\"en\">\n<head><title>Ok</title></head>\n<body>\n<p>No errors.</p>\n</body>\n</html>\n"},
			argv:  []string{"sh", "-c", "html-validate ok.html && echo 'html valid: ok.html'"}, want: "html valid: ok.html"},
		{name: "jscpd: duplicated code over the threshold", tools: []string{"jscpd"},
			files: map[string]string{"src/a.js": jscpdBody("a"), "src/b.js": jscpdBody("b")},
			argv:  []string{"jscpd", "--threshold", "1", "--reporters", "console", "--min-lines", "3", "src"}, want: "[2:1 - 11:28] (10 lines, 52 tokens)"},
		{name: "alex: a word that may be insensitive", tools: []string{"alex"},
			files: map[string]string{"README.md": "# Shop\n\nThe master server sends orders to the slave.\n"},
			argv:  []string{"alex", "README.md"}, want: "may be insensitive"},
		{name: "sass-lint: a color that is not in lower case", tools: []string{"sass-lint"},
			files: map[string]string{"site.scss": ".card {\n  color: #FFF;\n}\n", ".sass-lint.yml": "rules:\n  hex-length: 0\n  hex-notation: 2\n"},
			argv:  []string{"sass-lint", "-v", "-q", "--max-warnings", "0", "site.scss"}, want: "Hex notation should all be lower case"},
		{name: "jsdoc: a source file that does not parse", tools: []string{"jsdoc"},
			files: map[string]string{"src/cart.js": "/**\n * The total of the cart.\n * @param {number[]} items\n */\nfunction total(items) {\n  return items.reduce((a, b) => a + b 0);\n}\n"},
			argv:  []string{"jsdoc", "-d", "out", "src/cart.js"}, want: "Unable to parse"},
		{name: "swagger-cli validate: a document without info", tools: []string{"swagger-cli"},
			files: map[string]string{"openapi.yaml": "openapi: 3.0.3\npaths:\n  /cart:\n    get:\n      responses:\n        '200':\n          description: the cart\n"},
			argv:  []string{"swagger-cli", "validate", "openapi.yaml"}, want: "openapi.yaml is not a valid Openapi API definition"},
		{name: "ci log: swagger-cli validate a reference that does not resolve after thirty setup lines", tools: []string{"swagger-cli"},
			files: map[string]string{"api.yaml": "openapi: 3.0.3\ninfo:\n  title: Shop\n  version: 1.0.0\npaths:\n  /cart:\n    get:\n      responses:\n        '200':\n          description: the cart\n          content:\n            application/json:\n              schema:\n                $ref: '#/components/schemas/Cartt'\ncomponents:\n  schemas:\n    Cart:\n      type: object\n"},
			argv:  noisy(30, "swagger-cli validate api.yaml"), want: "Token \"Cartt\" does not exist"},
		{name: "appstreamcli validate: a metainfo file with errors", tools: []string{"appstreamcli"},
			files: map[string]string{"org.example.Shop.metainfo.xml": "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<component type=\"desktop-application\">\n  <id>org.example.Shop</id>\n  <name>Shop</name>\n  <summary>A shop.</summary>\n  <metadata_license>MIT</metadata_license>\n</component>\n"},
			argv:  []string{"appstreamcli", "validate", "--no-net", "--no-color", "org.example.Shop.metainfo.xml"}, want: "E: org.example.Shop:~:"},
		// compilers of the Node registry
		{name: "peggy: a grammar that does not parse", tools: []string{"peggy"},
			files: map[string]string{"price.peggy": "price = int \".\" int\nint = [0-9]+ {\n"},
			argv:  []string{"peggy", "price.peggy"}, want: "but \"{\" found"},
		{name: "ci log: peggy a rule that is not defined between setup and teardown", tools: []string{"peggy"},
			files: map[string]string{"list.peggy": "list = item (\",\" item)*\nitem = digitt+\ndigit = [0-9]\n"},
			argv:  noisyAround(25, 25, "peggy list.peggy"), want: "Rule \"digitt\" is not defined"},
		{name: "mjml: an attribute that is not allowed", tools: []string{"mjml"},
			files: map[string]string{"card.mjml": "<mjml>\n  <mj-body>\n    <mj-section>\n      <mj-column>\n        <mj-text colr=\"red\">Your order shipped</mj-text>\n      </mj-column>\n    </mj-section>\n  </mj-body>\n</mjml>\n"},
			argv:  []string{"mjml", "--config.validationLevel", "strict", "card.mjml", "-o", "card.html"}, want: "Attribute colr is illegal"},
		{name: "asc: a name that cannot be found", tools: []string{"asc"},
			files: map[string]string{"cart.ts": "export function total(a: i32, b: i32): i32 {\n  return a + totl;\n}\n"},
			argv:  []string{"asc", "cart.ts", "--outFile", "cart.wasm"}, want: "Cannot find name 'totl'"},
		{name: "ci log: asc a type that does not convert after thirty setup lines", tools: []string{"asc"},
			files: map[string]string{"price.ts": "export function price(): i32 {\n  const p: string = \"3\";\n  return p;\n}\n"},
			argv:  noisy(30, "asc price.ts --outFile price.wasm"), want: "Type '~lib/string/String' is not assignable to type 'i32'"},
		{name: "pass: asc a module that compiles", tools: []string{"asc"}, pass: true,
			files: map[string]string{"ok.ts": "export function errors(): i32 {\n  return 0;\n}\n"},
			argv:  []string{"sh", "-c", "asc ok.ts --outFile ok.wasm && echo \"compiled: $(wc -c < ok.wasm) bytes\""}, want: "compiled:"},
		{name: "wat2wasm: a token that is not expected", tools: []string{"wat2wasm"},
			files: map[string]string{"cart.wat": "(module\n  (func $total (param i32 i32) (result i32)\n    local.get 0\n    local.get 1\n    i32.ad)\n  (export \"total\" (func $total)))\n"},
			argv:  []string{"wat2wasm", "cart.wat"}, want: "unexpected token i32.ad"},
		{name: "ci log: wat2wasm a type mismatch between setup and teardown", tools: []string{"wat2wasm"},
			files: map[string]string{"sum.wat": "(module\n  (func $sum (param i32 i64) (result i32)\n    local.get 0\n    local.get 1\n    i32.add)\n  (export \"sum\" (func $sum)))\n"},
			argv:  noisyAround(25, 25, "wat2wasm sum.wat"), want: "type mismatch in i32.add"},
	}
}

// jscpdBody is a module that jscpd finds duplicated in another with a
// different name.
func jscpdBody(name string) string {
	return "// module " + name + "\nfunction total(items) {\n  let sum = 0;\n  for (const item of items) {\n    if (item.price > 0) {\n      sum += item.price * item.qty;\n    }\n  }\n  return sum;\n}\nmodule.exports = { total };\n"
}
