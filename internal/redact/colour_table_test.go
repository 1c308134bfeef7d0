package redact

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Coloured output as the tools print it. Detection sees the text a person
// reads; in the recording the secret's printable bytes become the marker,
// where its first byte was, and every escape sequence inside it stays, so
// the colours around it still open and close.
func TestColouredSecrets(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 4))
	gen := func(n int) string { return rs(rng, alnum62, n) }
	const (
		E      = "\x1b"
		assign = "[REDACTED:secret-assignment]"
		gh     = "[REDACTED:github-token]"
	)
	type tc struct {
		name    string
		in      string
		want    string
		secrets []string
	}
	var cases []tc
	add := func(name, in, want string, secrets ...string) {
		cases = append(cases, tc{name, in, want, secrets})
	}

	v := gen(20)
	add("git grep highlights the name",
		E+"[35mconfig/prod.yml"+E+"[m"+E+"[36m:"+E+"[m"+E+"[32m14"+E+"[m"+E+"[36m:"+E+"[m    "+E+"[1;31mpassword"+E+"[m: "+v,
		E+"[35mconfig/prod.yml"+E+"[m"+E+"[36m:"+E+"[m"+E+"[32m14"+E+"[m"+E+"[36m:"+E+"[m    "+E+"[1;31mpassword"+E+"[m: "+assign, v)

	v = gen(28)
	add("git grep highlights the start of the value, between name and separator too",
		"API_"+E+"[1;31mTOKEN"+E+"[m="+E+"[1;31m"+v[:6]+E+"[m"+v[6:],
		"API_"+E+"[1;31mTOKEN"+E+"[m="+E+"[1;31m"+assign+E+"[m", v)

	v = gen(24)
	add("a colour between the name and its colon",
		"db_password"+E+"[1;31m"+E+"[m:"+E+"[1;31m "+v+E+"[m",
		"db_password"+E+"[1;31m"+E+"[m:"+E+"[1;31m "+assign+E+"[m", v)

	v, w := gen(20), gen(40)
	add("jq's colours around keys and string values",
		"  "+E+"[0m"+E+"[34;1m\"password\""+E+"[0m"+E+"[1;39m: "+E+"[0m"+E+"[0;32m\""+v+"\""+E+"[0m"+E+"[1;39m,\n"+
			"  "+E+"[0m"+E+"[34;1m\"client_secret\""+E+"[0m"+E+"[1;39m: "+E+"[0m"+E+"[0;32m\""+w+"\""+E+"[0m"+E+"[1;39m",
		"  "+E+"[0m"+E+"[34;1m\"password\""+E+"[0m"+E+"[1;39m: "+E+"[0m"+E+"[0;32m\""+assign+"\""+E+"[0m"+E+"[1;39m,\n"+
			"  "+E+"[0m"+E+"[34;1m\"client_secret\""+E+"[0m"+E+"[1;39m: "+E+"[0m"+E+"[0;32m\""+assign+"\""+E+"[0m"+E+"[1;39m", v, w)

	v = gen(18)
	add("grep --color=always inside the name",
		E+"[35m"+E+"[K./.env"+E+"[m"+E+"[K"+E+"[36m"+E+"[K:"+E+"[m"+E+"[KDB_"+E+"[01;31m"+E+"[KPASSWORD"+E+"[m"+E+"[K="+v,
		E+"[35m"+E+"[K./.env"+E+"[m"+E+"[K"+E+"[36m"+E+"[K:"+E+"[m"+E+"[KDB_"+E+"[01;31m"+E+"[KPASSWORD"+E+"[m"+E+"[K="+assign, v)

	v = gen(16)
	add("grep --color=always highlights the name and the equals sign",
		"SESSION_"+E+"[01;31m"+E+"[KSECRET="+E+"[m"+E+"[K"+v,
		"SESSION_"+E+"[01;31m"+E+"[KSECRET="+E+"[m"+E+"[K"+assign, v)

	v, w = gen(18), gen(32)
	add("yq -C",
		"  "+E+"[34mpassword"+E+"[0m: "+E+"[32m"+v+E+"[0m\n  "+E+"[34mtoken"+E+"[0m: "+E+"[32m\""+w+"\""+E+"[0m",
		"  "+E+"[34mpassword"+E+"[0m: "+E+"[32m"+assign+E+"[0m\n  "+E+"[34mtoken"+E+"[0m: "+E+"[32m\""+assign+"\""+E+"[0m", v, w)

	v, w = gen(20), gen(64)
	add("ls --color style attributes around values",
		"DB_PASSWORD="+E+"[01;32m"+v+E+"[0m\n"+E+"[1mSESSION_SECRET"+E+"[22m="+E+"[4m"+w+E+"[24m",
		"DB_PASSWORD="+E+"[01;32m"+assign+E+"[0m\n"+E+"[1mSESSION_SECRET"+E+"[22m="+E+"[4m"+assign+E+"[24m", v, w)

	v = gen(24)
	add("a coloured NAME=VALUE in 256 colours",
		E+"[38;5;208mREDIS_PASSWORD"+E+"[39m"+E+"[38;5;244m="+E+"[39m"+E+"[38;5;35m"+v+E+"[39m",
		E+"[38;5;208mREDIS_PASSWORD"+E+"[39m"+E+"[38;5;244m="+E+"[39m"+E+"[38;5;35m"+assign+E+"[39m", v)

	v = gen(30)
	add("colours inside the value stay where they were",
		"password="+v[:10]+E+"[1m"+v[10:20]+E+"[22m"+v[20:],
		"password="+assign+E+"[1m"+E+"[22m", v)

	v, w = gen(18), gen(40)
	add("cursor forward as the gap after the separator",
		"password:"+E+"[1C"+v+"\ntoken ="+E+"[3C"+w,
		"password:"+E+"[1C"+assign+"\ntoken ="+E+"[3C"+assign, v, w)

	v = gen(36)
	add("a highlighter that splits a token at its prefix",
		"token: "+E+"[35mghp_"+E+"[0m"+v,
		"token: "+E+"[35m"+gh+E+"[0m", v)

	v = gen(36)
	add("a window title carrying the command line",
		E+"]0;export GH_TOKEN=ghp_"+v+"\x07$ ls",
		E+"]0;export GH_TOKEN="+gh+"\x07$ ls", v)

	v = gen(20)
	add("an OSC 8 hyperlink whose target holds credentials",
		"remote: "+E+"]8;;https://deploy:"+v+"@git.example.com/app.git"+E+"\\clone URL"+E+"]8;;"+E+"\\ ready",
		"remote: "+E+"]8;;https://deploy:[REDACTED:url-credentials]@git.example.com/app.git"+E+"\\clone URL"+E+"]8;;"+E+"\\ ready", v)

	b1, b2 := gen(64), gen(40)
	add("a key coloured line by line keeps the colours of kept lines",
		E+"[33m-----BEGIN RSA PRIVATE"+" KEY-----"+E+"[0m\n"+E+"[33m"+b1+E+"[0m\n"+E+"[33m"+b2+E+"[0m\n"+E+"[33m-----END RSA PRIVATE"+" KEY-----"+E+"[0m",
		E+"[33m-----BEGIN RSA PRIVATE"+" KEY-----"+E+"[0m\n"+E+"[33m"+pemMarker+E+"[0m\n"+E+"[33m-----END RSA PRIVATE"+" KEY-----"+E+"[0m", b1, b2)

	b1, b2 = gen(64), gen(40)
	add("a dropped body line that closes a colour leaves the close",
		E+"[1;31m-----BEGIN EC PRIVATE"+" KEY-----\n"+b1+"\n"+b2+E+"[0m\n-----END EC PRIVATE"+" KEY-----",
		E+"[1;31m-----BEGIN EC PRIVATE"+" KEY-----\n"+pemMarker+"\n"+E+"[0m-----END EC PRIVATE"+" KEY-----", b1, b2)

	b1, b2 = gen(64), gen(40)
	add("a key split by colour inside its body lines",
		"-----BEGIN PRIVATE"+" KEY-----\n"+b1[:20]+E+"[7m"+b1[20:]+"\n"+b2[:5]+E+"[4m"+b2[5:]+"\n-----END PRIVATE"+" KEY-----",
		"-----BEGIN PRIVATE"+" KEY-----\n"+pemMarker+E+"[7m\n"+E+"[4m-----END PRIVATE"+" KEY-----", b1, b2)

	v, w = "cGFzc3dvcmQxMjM0NTY3OA==", "YXBpLWtleS0wMTIzNDU2Nzg5YWJjZGVm"
	add("kubecolor output of a Secret",
		E+"[33mapiVersion"+E+"[0m: "+E+"[36mv1"+E+"[0m\n"+E+"[33mdata"+E+"[0m:\n  "+E+"[33mpassword"+E+"[0m: "+E+"[36m"+v+E+"[0m\n  "+
			E+"[33mapi-key"+E+"[0m: "+E+"[36m"+w+E+"[0m\n"+E+"[33mkind"+E+"[0m: "+E+"[36mSecret"+E+"[0m",
		E+"[33mapiVersion"+E+"[0m: "+E+"[36mv1"+E+"[0m\n"+E+"[33mdata"+E+"[0m:\n  "+E+"[33mpassword"+E+"[0m: "+E+"[36m[REDACTED:k8s-secret-data]"+E+"[0m\n  "+
			E+"[33mapi-key"+E+"[0m: "+E+"[36m[REDACTED:k8s-secret-data]"+E+"[0m\n"+E+"[33mkind"+E+"[0m: "+E+"[36mSecret"+E+"[0m", v, w)

	r := mustNew(t, Config{})
	for _, c := range cases {
		for _, eol := range []string{"\n", "\r\n"} {
			name := c.name
			if eol != "\n" {
				name += ", CRLF"
			}
			t.Run(name, func(t *testing.T) {
				in := strings.ReplaceAll(c.in, "\n", eol) + eol
				want := strings.ReplaceAll(c.want, "\n", eol) + eol
				got := writeSplit(t, r, in, nil, WriterOptions{Workers: 1})
				require.Equal(t, want, got)
				for _, out := range []string{got, stripTerm(got)} {
					for _, s := range c.secrets {
						for _, f := range survivalForms(s) {
							require.NotContains(t, out, f)
						}
					}
				}
				requireStreams(t, r, in, want, name)
				require.Equal(t, want, writeSplit(t, r, "before\n"+in+"after\n", nil, WriterOptions{Workers: 2, RegionSize: 7})[len("before\n"):len(want)+len("before\n")])
			})
		}
	}
}
