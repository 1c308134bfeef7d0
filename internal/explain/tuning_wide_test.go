package explain

// tuningWideCases are tuning runs of the classes the widened held-out set
// showed explain missing (a test runner's failure heading and its
// expected/actual lines, a heading whose detail follows it, a message
// printed just before its stack trace, a linter's severity codes, a passing
// suite that logs errors), written with other programs and other words
// than the held-out runs: the rules are tuned on these only.
func tuningWideCases() []corpusCase {
	jestPkg := map[string]string{
		"package.json":   "{\"name\":\"ledger\",\"private\":true}\n",
		"jest.config.js": "module.exports = { testEnvironment: 'node', cache: false };\n",
	}
	with := func(base map[string]string, extra map[string]string) map[string]string {
		m := map[string]string{}
		for k, v := range base {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	return []corpusCase{
		{
			name: "jest: toBe in nested describe blocks", tools: []string{"jest"},
			files: with(jestPkg, map[string]string{
				"invoice.test.js": "describe('invoice', () => {\n  describe('discounts', () => {\n    test('keeps the net', () => { expect(100 - 0).toBe(100); });\n    test('applies ten percent', () => { expect(Math.round(80 * 0.9)).toBe(90); });\n  });\n  test('numbers lines', () => { expect([1, 2].length).toBe(2); });\n});\n",
			}),
			argv: []string{"jest", "--ci"}, want: "invoice › discounts › applies ten percent",
		},
		{
			name: "jest: toEqual of two arrays in a long suite", tools: []string{"jest"},
			files: with(jestPkg, map[string]string{
				"sort.test.js":  "test('sorts names', () => { expect(['bo', 'al'].sort()).toEqual(['al', 'bo', 'cy']); });\n",
				"a.test.js":     "test('a', () => { expect(1).toBe(1); });\n",
				"b.test.js":     "test('b', () => { expect(2).toBe(2); });\n",
				"c/c.test.js":   "test('c', () => { expect(3).toBe(3); });\n",
				"d/d.test.js":   "test('d', () => { expect(4).toBe(4); });\n",
				"e/e.test.js":   "test('e', () => { expect(5).toBe(5); });\n",
				"f/f.test.js":   "test('f', () => { expect(6).toBe(6); });\n",
				"g/g.test.js":   "test('g', () => { expect(7).toBe(7); });\n",
				"h/h.test.js":   "test('h', () => { expect(8).toBe(8); });\n",
				"sorted.js":     "module.exports = {};\n",
				"extra.test.js": "test('extra', () => { expect('x').toMatch(/x/); });\n",
			}),
			argv: []string{"jest", "--ci"}, want: "● sorts names",
		},
		{
			name: "pass: jest suite that warns and logs errors", tools: []string{"jest"}, pass: true,
			files: with(jestPkg, map[string]string{
				"queue.test.js": "test('drains after a failure', () => {\n  console.warn('queue paused after 3 failures');\n  console.error('Error: worker crashed, restarting');\n  expect([1, 2, 3].length).toBe(3);\n});\ntest('restarts', () => { expect(true).toBe(true); });\ntest('stops', () => { expect(false).toBe(false); });\n",
			}),
			argv: []string{"jest", "--ci"}, want: "3 passed, 3 total",
		},
		{
			name: "mocha: strictEqual of two strings", tools: []string{"mocha"},
			files: map[string]string{"test/slug.test.js": "const assert = require('node:assert');\nconst slug = (s) => s.toLowerCase().replace(/ /g, '_');\ndescribe('slug', () => {\n  it('lowers', () => { assert.strictEqual(slug('A'), 'a'); });\n  it('splits words', () => { assert.strictEqual(slug('Big Sale').split('-').length, 2); });\n  it('keeps digits', () => { assert.strictEqual(slug('v2'), 'v2'); });\n});\n"},
			argv:  []string{"mocha"}, want: "1 !== 2",
		},
		{
			name: "rspec: eq of two strings", tools: []string{"rspec"},
			files: map[string]string{"spec/greeting_spec.rb": "def greet(n) = \"Hi #{n}\"\n\nRSpec.describe 'greet' do\n  it 'greets by name' do\n    expect(greet('Ann')).to eq('Hello Ann')\n  end\n\n  it 'takes a name' do\n    expect(greet('x')).to start_with('Hi')\n  end\nend\n"},
			argv:  []string{"rspec", "--no-color"}, want: "expected: \"Hello Ann\"",
		},
		{
			name: "cmake: FATAL_ERROR message of a project", tools: []string{"cmake"},
			files: map[string]string{"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(vault NONE)\nif(NOT DEFINED VAULT_ROOT)\n  message(FATAL_ERROR \"set VAULT_ROOT to the vault checkout\")\nendif()\n"},
			argv:  []string{"cmake", "-S", ".", "-B", "out"}, want: "set VAULT_ROOT to the vault checkout",
		},
		{
			name: "cmake: a command called with the wrong arguments", tools: []string{"cmake"},
			files: map[string]string{"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(vault NONE)\nset_property(GLOBAL)\n"},
			argv:  []string{"cmake", "-S", ".", "-B", "out"}, want: "set_property called with incorrect number of arguments",
		},
		{
			name: "terraform validate: a missing required argument", tools: []string{"terraform"},
			files: map[string]string{"main.tf": "output \"bucket\" {\n  description = \"the bucket\"\n}\n"},
			argv:  []string{"terraform", "validate", "-no-color"}, want: "The argument \"value\" is required",
		},
		{
			name: "terraform validate: an undeclared variable", tools: []string{"terraform"},
			files: map[string]string{"main.tf": "variable \"zone\" {\n  type = string\n}\n\nresource \"terraform_data\" \"dns\" {\n  input = var.zoen\n}\n"},
			argv:  []string{"terraform", "validate", "-no-color"}, want: "An input variable with the name \"zoen\" has not been declared",
		},
		{
			name: "lua: calling a missing field", tools: []string{"lua5.4"},
			files: map[string]string{"net.lua": "local socket = {}\nprint('dialing')\nsocket.connect('db', 5432)\n"},
			argv:  []string{"lua5.4", "net.lua"}, want: "attempt to call a nil value (field 'connect')",
		},
		{
			name: "lua: error raised with a message", tools: []string{"lua5.4"},
			files: map[string]string{"load.lua": "local function load(path)\n  local f = io.open(path)\n  if not f then error('the manifest ' .. path .. ' is missing') end\nend\nprint('loading')\nload('manifest.txt')\n"},
			argv:  []string{"lua5.4", "load.lua"}, want: "the manifest manifest.txt is missing",
		},
		{
			name: "pylint: an undefined variable among conventions", tools: []string{"pylint"},
			files: map[string]string{"ledger.py": "import os\n\ndef balance(entries):\n    Total = 0\n    for e in entries:\n        Total += e\n    return totl\n\n\nprint(balance([1, 2]))\n"},
			argv:  []string{"pylint", "--persistent=n", "ledger.py"}, want: "Undefined variable 'totl'",
		},
		{
			name: "ctest: a failing test that prints on stdout", tools: []string{"ctest", "cmake"},
			files: map[string]string{"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(vault NONE)\nenable_testing()\nadd_test(NAME codec COMMAND sh -c \"echo ok\")\nadd_test(NAME schema COMMAND sh -c \"echo loading schema v3; echo 'column owner_id has no index'; exit 2\")\nadd_test(NAME cli COMMAND sh -c \"echo ok\")\n"},
			setup: [][]string{{"cmake", "-S", ".", "-B", "out"}},
			dir:   "out", argv: []string{"ctest", "--output-on-failure"}, want: "column owner_id has no index",
		},
		{
			name: "phpunit: two arrays that differ", tools: []string{"phpunit"},
			files: map[string]string{"tests/TagsTest.php": "<?php\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class TagsTest extends TestCase\n{\n    public function testSplits(): void { $this->assertSame(['a', 'b'], explode(',', 'a,b,c')); }\n    public function testJoins(): void { $this->assertSame('a,b', implode(',', ['a', 'b'])); }\n}\n"},
			argv:  []string{"phpunit", "tests/TagsTest.php"}, want: "Failed asserting that two arrays are identical",
		},
		{
			name: "jest: toBe of two strings", tools: []string{"jest"},
			files: with(jestPkg, map[string]string{
				"label.test.js": "const label = (n) => `#${n}`;\ntest('pads the label', () => { expect(label(7)).toBe('#007'); });\ntest('labels', () => { expect(label(1)).toBe('#1'); });\n",
			}),
			argv: []string{"jest", "--ci"}, want: "Received: \"#7\"",
		},
		{
			name: "rustc: mismatched types in a call", tools: []string{"rustc"},
			files: map[string]string{"main.rs": "fn area(w: u32, h: u32) -> u32 { w * h }\n\nfn main() {\n    println!(\"{}\", area(3, \"4\"));\n}\n"},
			argv:  []string{"rustc", "--edition", "2021", "-o", "prog", "main.rs"}, want: "error[E0308]: mismatched types",
		},
		{
			name: "git clone: a remote that is not listening", tools: []string{"git"},
			argv: []string{"git", "clone", "http://127.0.0.1:1/vault.git"}, want: "Failed to connect to 127.0.0.1 port 1",
		},
		{
			name: "php: a notice then an uncaught exception", tools: []string{"php"},
			files: map[string]string{"ledger.php": "<?php\nerror_reporting(E_ALL);\n$parts = explode(',', 'a,b');\necho end(explode(',', 'x,y')), \"\\n\";\nthrow new RuntimeException('ledger file is locked by another writer');\n"},
			argv:  []string{"php", "ledger.php"}, want: "ledger file is locked by another writer",
		},
		{
			name: "mvn: clean offline without its plugin", tools: []string{"mvn"},
			files: map[string]string{"pom.xml": "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>vault</groupId>\n  <artifactId>keys</artifactId>\n  <version>2.0</version>\n</project>\n"},
			argv:  []string{"mvn", "-o", "-B", "-Dmaven.repo.local=.m2", "clean"}, want: "maven-clean-plugin:2.5 or one of its dependencies could not be resolved",
		},
		{
			name: "pytest: a fixture that runs a missing program", tools: []string{"pytest"},
			files: map[string]string{"test_vault.py": "import subprocess\nimport pytest\n\n\n@pytest.fixture\ndef vault():\n    return subprocess.run(['vault-server', '--dev'], check=True)\n\n\ndef test_unseal(vault):\n    assert vault\n\n\ndef test_version():\n    assert True\n"},
			argv:  []string{"pytest", "-p", "no:cacheprovider", "test_vault.py"}, want: "FileNotFoundError: [Errno 2] No such file or directory: 'vault-server'",
		},
		{
			name: "pytest: an HTTP call refused inside a test", tools: []string{"pytest"},
			files: map[string]string{"test_api.py": "import http.client\n\n\ndef test_health():\n    c = http.client.HTTPConnection('127.0.0.1', 1, timeout=2)\n    c.request('GET', '/health')\n    assert c.getresponse().status == 200\n"},
			argv:  []string{"pytest", "-p", "no:cacheprovider", "test_api.py"}, want: "ConnectionRefusedError: [Errno 111] Connection refused",
		},
	}
}
