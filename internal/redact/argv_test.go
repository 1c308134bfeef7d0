package redact

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const (
	mF = "[REDACTED:secret-flag]"
	mA = "[REDACTED:secret-arg]"
)

// argvCase: in is the argv, one word per space (words with spaces are
// written with | for the space); want the same for the result ("" means
// unchanged).
type argvCase struct{ in, want string }

func splitTestArgv(s string) []string {
	f := strings.Fields(s)
	for i := range f {
		f[i] = strings.ReplaceAll(f[i], "|", " ")
	}
	return f
}

var argvCases = []argvCase{
	// the any-program rule: a secret-like flag takes the next argument
	{"app --password S3cret", "app --password " + mF},
	{"app --passphrase S3cret", "app --passphrase " + mF},
	{"app --token S3cret", "app --token " + mF},
	{"app --api-key S3cret", "app --api-key " + mF},
	{"app --client-secret S3cret", "app --client-secret " + mF},
	{"app --secret S3cret", "app --secret " + mF},
	{"app --auth-token S3cret", "app --auth-token " + mF},
	{"app --access-token S3cret", "app --access-token " + mF},
	{"app --tlspassword S3cret", "app --tlspassword " + mF},
	{"kubectl --token S3cret get pods", "kubectl --token " + mF + " get pods"},
	{"gpg --batch --passphrase S3cret -d f.gpg", "gpg --batch --passphrase " + mF + " -d f.gpg"},
	{"goapp -password S3cret -v", "goapp -password " + mF + " -v"},
	{"goapp -token=S3cret", "goapp -token=" + mF},
	{"app --password=S3cret x", "app --password=" + mF + " x"},
	{"app --password=1 x", "app --password=" + mF + " x"},
	{"app --password= x", ""},
	{"app --password multi|word next", "app --password " + mF + " next"},
	{"app --password -dash-first", "app --password " + mF},
	// the flag as the last argument has no value
	{"app --password", ""},
	{"app -v --token", ""},
	// a following long option is not taken for the value
	{"app --token --verbose x", ""},
	{"app --password -", ""},
	// names that say how a secret is given, not the secret
	{"docker login --password-stdin -u me reg", ""},
	{"ansible-playbook --ask-pass site.yml", ""},
	{"ansible-playbook --ask-become-pass site.yml", ""},
	{"app --ask-password x", ""},
	{"app --no-password x", ""},
	{"app --password-file /run/pw x", ""},
	{"app --token-file /run/tok x", ""},
	{"gpg --passphrase-file /run/pp -d f", ""},
	{"gpg --passphrase-fd 0 -d f", ""},
	{"gpg --passphrase-repeat 2 -c f", ""},
	{"vault write x --secret-id abc", ""},
	{"vault token create --token-ttl 1h", ""},
	{"gh auth login --with-token", ""},
	{"gh auth login --with-token x", ""},
	{"app -token-only x", ""},
	{"vault login -token-only S3cretToken", "vault login -token-only " + mA},
	{"app --show-token x", ""},
	{"app --password-prompt x", ""},
	{"app --pass x", ""},
	{"app -p x", ""},
	// -- ends a program's own options; the any-program rule goes on, and
	// a program right after -- is read with its own entries
	{"docker -- login -p S3cret", ""},
	{"npm run deploy -- --token S3cret", "npm run deploy -- --token " + mF},
	{"kubectl exec db -- mysql -uroot -pS3cret", "kubectl exec db -- mysql -uroot -p" + mF},
	{"rac run -- sshpass -p S3cret ssh host", "rac run -- sshpass -p " + mF + " ssh host"},

	// docker login, podman login, helm
	{"docker login -u me -p S3cret registry.example", "docker login -u me -p " + mF + " registry.example"},
	{"docker login --password S3cret registry.example", "docker login --password " + mF + " registry.example"},
	{"docker -H tcp://h:2375 login -p S3cret", "docker -H tcp://h:2375 login -p " + mF},
	{"docker run -p 8080:80 nginx", ""},
	{"podman login -p S3cret quay.io", "podman login -p " + mF + " quay.io"},
	{"helm repo add acme https://charts.example --username me --password S3cret", "helm repo add acme https://charts.example --username me --password " + mF},
	{"helm registry login reg.example -u me -p S3cret", "helm registry login reg.example -u me -p " + mF},
	// sshpass
	{"sshpass -p S3cret ssh user@host", "sshpass -p " + mF + " ssh user@host"},
	{"sshpass -pS3cret ssh user@host", "sshpass -p" + mF + " ssh user@host"},
	{"sshpass -f /run/pw ssh user@host", ""},
	{"sshpass -e ssh user@host", ""},
	// mysql family: glued only; -p alone prompts and the next word is the database
	{"mysql -uroot -pS3cret db", "mysql -uroot -p" + mF + " db"},
	{"mysql --password=S3cret db", "mysql --password=" + mF + " db"},
	{"mysql -uroot -p db", ""},
	// --password WORD: MySQL would prompt, but WORD was typed as the password
	{"mysql -u root --password S3cret db", "mysql -u root --password " + mF + " db"},
	{"mysqladmin -u root --password S3cret status", "mysqladmin -u root --password " + mF + " status"},
	{"mysql -P 3306 -h db.example -uroot -pS3cret", "mysql -P 3306 -h db.example -uroot -p" + mF},
	{"/usr/bin/mysqldump -pS3cret --all-databases", "/usr/bin/mysqldump -p" + mF + " --all-databases"},
	{"mariadb -pS3cret", "mariadb -p" + mF},
	{"mariadb-dump --password=S3cret db", "mariadb-dump --password=" + mF + " db"},
	{"mysqladmin -pS3cret status", "mysqladmin -p" + mF + " status"},
	// psql has no password flag
	{"psql -h db -U app -W appdb", ""},
	// redis, mongo
	{"redis-cli -h r -a S3cret ping", "redis-cli -h r -a " + mF + " ping"},
	{"redis-cli --pass S3cret ping", "redis-cli --pass " + mF + " ping"},
	{"redis-cli --askpass ping", ""},
	{"mongosh -u admin -p S3cret --authenticationDatabase admin", "mongosh -u admin -p " + mF + " --authenticationDatabase admin"},
	{"mongo -u admin -p S3cret", "mongo -u admin -p " + mF},
	{"mongosh --password S3cret", "mongosh --password " + mF},
	// aws configure set
	{"aws configure set aws_secret_access_key S3cret", "aws configure set aws_secret_access_key " + mA},
	{"aws configure set aws_session_token S3cret", "aws configure set aws_session_token " + mA},
	{"aws --profile prod configure set default.aws_secret_access_key S3cret", "aws --profile prod configure set default.aws_secret_access_key " + mA},
	{"aws configure set aws_access_key_id AKIDEXAMPLE", ""},
	{"aws configure set region eu-west-1", ""},
	// htpasswd
	{"htpasswd -b /etc/htpasswd alice S3cret", "htpasswd -b /etc/htpasswd alice " + mA},
	{"htpasswd -bc /etc/htpasswd alice S3cret", "htpasswd -bc /etc/htpasswd alice " + mA},
	{"htpasswd -cbB -C 12 /etc/htpasswd alice S3cret", "htpasswd -cbB -C 12 /etc/htpasswd alice " + mA},
	{"htpasswd -nb alice S3cret", "htpasswd -nb alice " + mA},
	{"htpasswd -n -b alice S3cret", "htpasswd -n -b alice " + mA},
	{"htpasswd -c /etc/htpasswd alice", ""},
	{"htpasswd -n alice", ""},
	// openssl: only pass: is a secret
	{"openssl pkcs12 -export -passout pass:S3cret -out k.p12", "openssl pkcs12 -export -passout pass:" + mF + " -out k.p12"},
	{"openssl rsa -in k.pem -passin pass:S3cret", "openssl rsa -in k.pem -passin pass:" + mF},
	{"openssl enc -aes-256-cbc -pass pass:S3cret -in f", "openssl enc -aes-256-cbc -pass pass:" + mF + " -in f"},
	{"openssl pkcs12 -in f.p12 -password pass:S3cret", "openssl pkcs12 -in f.p12 -password pass:" + mF},
	{"openssl rsa -in k.pem -passin env:KEYPASS", ""},
	{"openssl rsa -in k.pem -passin file:/run/pw", ""},
	{"openssl rsa -in k.pem -passin stdin", ""},
	{"openssl enc -d -aes-256-cbc -k S3cret -in f", "openssl enc -d -aes-256-cbc -k " + mF + " -in f"},
	{"openssl enc -d -aes-256-cbc -kfile /run/pw -in f", ""},
	{"openssl req -new -key k.pem -keyform PEM", ""},
	{"openssl enc -aes-128-cbc -K 00112233445566778899aabbccddeeff -iv 00", "openssl enc -aes-128-cbc -K " + mF + " -iv 00"},
	{"openssl ca -key S3cret -in r.csr", "openssl ca -key " + mF + " -in r.csr"},
	// curl
	{"curl -u alice:S3cret https://api.example", "curl -u alice:" + mF + " https://api.example"},
	{"curl --user alice:S3cret https://api.example", "curl --user alice:" + mF + " https://api.example"},
	{"curl -ualice:S3cret https://api.example", "curl -ualice:" + mF + " https://api.example"},
	{"curl -u alice https://api.example", ""},
	{"curl -u sk0123456789: https://api.example", "curl -u " + mF + ": https://api.example"},
	{"curl -u : https://api.example", ""},
	{"curl -U proxy:S3cret https://api.example", "curl -U proxy:" + mF + " https://api.example"},
	{"curl --oauth2-bearer S3cret https://api.example", "curl --oauth2-bearer " + mF + " https://api.example"},
	{"curl -E client.pem:S3cret https://api.example", "curl -E client.pem:" + mF + " https://api.example"},
	{"curl -E client.pem https://api.example", ""},
	{"curl --pass S3cret --key k.pem https://api.example", "curl --pass " + mF + " --key k.pem https://api.example"},
	// gpg
	{"gpg --pinentry-mode loopback --passphrase S3cret -c f", "gpg --pinentry-mode loopback --passphrase " + mF + " -c f"},
	// az
	{"az login --service-principal -u app -p S3cret --tenant t", "az login --service-principal -u app -p " + mF + " --tenant t"},
	{"az login -u me@example.com --password S3cret", "az login -u me@example.com --password " + mF},
	{"az vm create -p x", ""},
	// vault login TOKEN; K=V settings with another method
	{"vault login S3cretToken", "vault login " + mA},
	{"vault login -address=https://v:8200 S3cretToken", "vault login -address=https://v:8200 " + mA},
	{"vault login -method=userpass username=me", ""},
	{"vault login -", ""},
	{"vault status", ""},
	// npm and friends
	{"npm config set //registry.example/:_authToken S3cret", "npm config set //registry.example/:_authToken " + mA},
	{"npm config set //registry.example/:_authToken=S3cret", "npm config set //registry.example/:_authToken=" + mA},
	{"npm config set registry https://registry.example", ""},
	{"yarn config set npmAuthToken S3cret", "yarn config set npmAuthToken " + mA},
	{"git config --global github.token S3cret", "git config --global github.token " + mA},
	{"git config user.name Alice", ""},
	// ldap, zip, keytool, smbclient
	{"ldapsearch -x -D cn=admin -w S3cret -b dc=ex", "ldapsearch -x -D cn=admin -w " + mF + " -b dc=ex"},
	{"zip -P S3cret out.zip f", "zip -P " + mF + " out.zip f"},
	{"keytool -list -keystore ks.jks -storepass S3cret", "keytool -list -keystore ks.jks -storepass " + mF},
	{"keytool -importkeystore -srcstorepass S3cret -deststorepass S3cret2 -destkeypass S3cret3", "keytool -importkeystore -srcstorepass " + mF + " -deststorepass " + mF + " -destkeypass " + mF},
	{"redis-server --port 6379 --requirepass S3cret", "redis-server --port 6379 --requirepass " + mF},
	{"ssh-keygen -p -f id_ed25519 -P Old5ecret -N New5ecret", "ssh-keygen -p -f id_ed25519 -P " + mF + " -N " + mF},
	{"7z a -pS3cret -mhe=on b.7z data", "7z a -p" + mF + " -mhe=on b.7z data"},
	{"7z x -p b.7z", ""},
	{"unzip -P S3cret r.zip", "unzip -P " + mF + " r.zip"},
	{"smbclient //srv/share -U alice%S3cret", "smbclient //srv/share -U alice%" + mF},
	// runners and shells
	{"sudo -u postgres mysql -pS3cret", "sudo -u postgres mysql -p" + mF},
	{"sudo -u mysql mysql -pS3cret", "sudo -u mysql mysql -p" + mF},
	{"env MYSQL_HOST=db timeout 30 mysql -pS3cret", "env MYSQL_HOST=db timeout 30 mysql -p" + mF},
	{"docker exec -it db mysql -uroot -pS3cret", "docker exec -it db mysql -uroot -p" + mF},
	{"ssh host redis-cli -a S3cret ping", "ssh host redis-cli -a " + mF + " ping"},
	{"sh -c mysql|-uroot|-pS3cret|db", "sh -c mysql|-uroot|-p" + mF + "|db"},
	{"bash -ec cd|/x|&&|sshpass|-p|'S3cret'|ssh|h", "bash -ec cd|/x|&&|sshpass|-p|'" + mF + "'|ssh|h"},
	{"sudo bash -c docker|login|-p|S3cret", "sudo bash -c docker|login|-p|" + mF},
	// a program name as an argument of another program is not followed
	{"echo mysql -pS3cret", ""},
	{"find . -name mysql -print", ""},
	{"git log -p mysql", ""},
}

func TestArgvGrammar(t *testing.T) {
	rules := DefaultArgvRules()
	for _, c := range argvCases {
		in := splitTestArgv(c.in)
		want := in
		if c.want != "" {
			want = splitTestArgv(c.want)
		}
		got := rules.Argv(in)
		require.Equal(t, want, got, "argv %q", c.in)
		if c.want == "" {
			require.Equal(t, &in[0], &got[0], "%q: unchanged argv must be returned as is", c.in)
		}
		require.Equal(t, splitTestArgv(c.in), in, "%q: Argv modified its input", c.in)
		// Idempotent: the markers are not secrets of their own.
		require.Equal(t, got, rules.Argv(got), "%q: redacted twice", c.in)
	}
}

// The same command lines as one string (a tombstone's command) come out the
// same, word for word.
func TestArgvLine(t *testing.T) {
	rules := DefaultArgvRules()
	for _, c := range argvCases {
		if strings.Contains(c.in, "|") {
			continue // words with blanks: a joined line reads them apart
		}
		want := c.in
		if c.want != "" {
			want = c.want
		}
		require.Equal(t, want, rules.Line(c.in), "line %q", c.in)
	}
	for _, c := range []argvCase{
		{"mysql -pS3cret db; sshpass -p 'S3 cret' ssh h", "mysql -p" + mF + " db; sshpass -p '" + mF + "' ssh h"},
		{"cd /x && docker login -p \"S3cret\" reg | tee log", "cd /x && docker login -p \"" + mF + "\" reg | tee log"},
		{"app --password=\"a b\" x", "app --password=\"" + mF + "\" x"},
		{"app --password a\\ b x", "app --password " + mF + " x"},
		{"app --token", ""},
		{"", ""},
		// a shell's -c script joined without quotes (a tombstone of an old rac)
		{"sh -c mysql -uroot -pS3cret db", "sh -c mysql -uroot -p" + mF + " db"},
		{"bash -c sshpass -p S3cret ssh h", "bash -c sshpass -p " + mF + " ssh h"},
		// a tombstone's quoting reads back as the words
		{"deploy --password 'two words' --env prod", "deploy --password '" + mF + "' --env prod"},
	} {
		want := c.in
		if c.want != "" {
			want = c.want
		}
		require.Equal(t, want, rules.Line(c.in), "line %q", c.in)
	}
}

func TestArgvRulesConfig(t *testing.T) {
	rules, err := NewArgvRules([]string{
		"acme deploy:--pin",
		"acme:-k=",
		"legacy-db:-p",
		"setpw:2",
		"vendor-cli:-s vault:",
		"mytool:!--token",
		"dbtool set:pair",
	})
	require.NoError(t, err)
	for _, c := range []argvCase{
		{"acme deploy --pin 1234 prod", "acme deploy --pin " + mF + " prod"},
		{"acme status --pin 1234", ""},
		{"acme -kS3cret", "acme -k" + mF},
		{"acme -k S3cret", ""},
		{"legacy-db -p S3cret", "legacy-db -p " + mF},
		{"setpw alice S3cret", "setpw alice " + mA},
		{"vendor-cli -s vault:S3cret", "vendor-cli -s vault:" + mF},
		{"vendor-cli -s env:X", ""},
		{"mytool --token x", ""},
		{"dbtool set api_token S3cret", "dbtool set api_token " + mA},
		// the built-in entries stay
		{"mysql -pS3cret", "mysql -p" + mF},
	} {
		want := splitTestArgv(c.in)
		if c.want != "" {
			want = splitTestArgv(c.want)
		}
		require.Equal(t, want, rules.Argv(splitTestArgv(c.in)), "argv %q", c.in)
	}
}

func TestParseArgSpecErrors(t *testing.T) {
	for _, bad := range []string{
		"mysql",         // no colon
		":-p",           // no command
		"mysql:",        // nothing to redact
		"mysql:p",       // not a flag
		"mysql:-",       // not a flag
		"mysql:--",      // not a flag
		"mysql:0",       // argument numbers start at 1
		"mysql:100",     // too far
		"mysql:x1",      // neither
		"-p:1",          // no program
		"*:1",           // any program takes flags only
		"* login:-p",    // any program takes no words
		"mysql:-p *",    // empty prefix
		"mysql:!nope",   // ! needs a flag
		"mysql:-p=x=",   // a flag with '='
		"/usr/bin/x:-p", // a base name, not a path
	} {
		err := ParseArgSpec(bad)
		require.Error(t, err, "%q", bad)
		require.Contains(t, err.Error(), "want COMMAND:SPEC", "%q", bad)
		require.NotContains(t, err.Error(), "\n", "%q: one line", bad)
		_, err = NewArgvRules([]string{bad})
		require.Error(t, err, "%q", bad)
	}
	for _, d := range builtinArgs {
		require.NoError(t, ParseArgSpec(d.spec), "built-in %q", d.spec)
	}
}

func TestSecretFlagName(t *testing.T) {
	for name, want := range map[string]bool{
		"password": true, "passphrase": true, "token": true, "api-key": true,
		"client-secret": true, "auth-token": true, "access-token": true, "secret": true,
		"password-stdin": false, "passphrase-fd": false, "passphrase-repeat": false,
		"ask-pass": false, "ask-password": false, "no-password": false, "with-token": false,
		"show-token": false, "token-only": false, "password-prompt": false,
		"password-file": false, "token-file": false, "secret-id": false, "token-ttl": false,
		"pass": false, "passin": false,
	} {
		require.Equal(t, want, secretFlagName([]byte(name)), name)
	}
}
