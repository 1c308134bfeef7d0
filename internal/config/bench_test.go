package config

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkLoad is rac run's start-up cost for settings: no file (the
// common case: one failed open), and a small file.
func BenchmarkLoad(b *testing.B) {
	cases := []struct {
		name string
		yaml string
	}{
		{"nofile", ""},
		{"smallfile", "run:\n  drain_timeout: 5s\n  announce: end\nredact:\n  env_names: [ACME_THING]\n  rules:\n    - {name: acme-token, prefix: ACME-, pattern: 'ACME-[a-z]{20}'}\nrecord:\n  max_bytes: 8MiB\n"},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			dir := b.TempDir()
			e := env{"XDG_CONFIG_HOME": dir, "RAC_RUN_TIMEOUT": "10m"}
			if c.yaml != "" {
				writeBench(b, dir, c.yaml)
			}
			opts := Options{Getenv: e.getenv, Flags: map[string]string{"run.announce": "none"}}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Load(opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func writeBench(b *testing.B, dir, yaml string) {
	b.Helper()
	path := filepath.Join(dir, "rac", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
		b.Fatal(err)
	}
}
