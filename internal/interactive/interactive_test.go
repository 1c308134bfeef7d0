package interactive

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestIsInteractive(t *testing.T) {
	env := map[string]string{"EDITOR": "/opt/bin/myed --wait", "VISUAL": "code"}
	getenv := func(k string) string { return env[k] }
	for _, tc := range []struct {
		argv string
		want bool
	}{
		// editors, pagers, full-screen tools
		{"vim notes.txt", true},
		{"/usr/bin/nvim", true},
		{"nano -w f", true},
		{"emacs f", true},
		{"emacs --batch -l x.el", false},
		{"myed file", true}, // $EDITOR
		{"code .", true},    // $VISUAL
		{"less README", true},
		{"more f", true},
		{"man ls", true},
		{"top", true},
		{"top -b -n 1", false},
		{"top -bn1", false},
		{"htop", true},
		{"watch -n 1 date", true},
		{"tmux", true},
		{"tmux new -s work", true},
		{"tmux -L sock attach", true},
		{"tmux ls", false},
		{"screen -r", true},
		{"screen -ls", false},
		// ssh
		{"ssh host", true},
		{"ssh -p 2222 -i key user@host", true},
		{"ssh host uptime", false},
		{"ssh -t host top", true},
		{"ssh -N -L 8080:localhost:80 host", false},
		// REPLs and shells
		{"python3", true},
		{"python3.12 -q", true},
		{"python script.py", false},
		{"python3 -c print(1)", false},
		{"python3 -m http.server", false},
		{"python3 -i script.py", true},
		{"node", true},
		{"node app.js", false},
		{"node -e 1", false},
		{"irb", true},
		{"psql -h db -U me app", true},
		{"psql -c select", false},
		{"psql -tAc select", false},
		{"mysql -u root", true},
		{"mysql -e select", false},
		{"sqlite3 app.db", true},
		{"sqlite3 app.db select", false},
		{"bash", true},
		{"bash --norc", true},
		{"bash -lc ls", false},
		{"bash script.sh", false},
		{"bash -i script.sh", true},
		{"zsh", true},
		{"fish -c ls", false},
		{"sh -e", true},
		{"sh -o vi", true},
		// git
		{"git commit", true},
		{"git commit --amend", true},
		{"git commit -m msg", false},
		{"git commit -am msg", false},
		{"git commit --message=msg", false},
		{"git commit -F msgfile", false},
		{"git commit -C HEAD", false},
		{"git commit --amend --no-edit", false},
		{"git commit -S -m msg", false},
		{"git commit -m msg -e", true},
		{"git -C dir -c user.name=x commit", true},
		{"git -C dir -c user.name=x commit -m msg", false},
		{"git --no-pager --git-dir=.git commit", true},
		{"git rebase -i HEAD~3", true},
		{"git rebase --interactive main", true},
		{"git rebase main", false},
		{"git add -p", true},
		{"git add --patch f", true},
		{"git add -i", true},
		{"git add --interactive", true},
		{"git add .", false},
		{"git checkout -p f", true},
		{"git mergetool", true},
		{"git tag -a v1", true},
		{"git tag -a v1 -m msg", false},
		{"git status", false},
		{"git log", false},
		{"git", false},
		// kubectl, docker
		{"kubectl exec -it pod -- sh", true},
		{"kubectl exec -ti pod -- sh", true},
		{"kubectl exec -i -t pod -- sh", true},
		{"kubectl exec --stdin --tty pod -- sh", true},
		{"kubectl -n prod exec -it pod -- sh", true},
		{"kubectl exec pod -- ls -it", false},
		{"kubectl exec -i pod -- cat", false},
		{"kubectl edit deploy/x", true},
		{"kubectl attach -it pod", true},
		{"kubectl debug -it node/x --image=busybox", true},
		{"kubectl get pods", false},
		{"docker run -it ubuntu bash", true},
		{"docker run --rm -it ubuntu bash", true},
		{"docker run --name x -it ubuntu", true},
		{"docker run ubuntu ls -it", false},
		{"docker run -d nginx", false},
		{"docker exec -it c sh", true},
		{"docker container exec -it c sh", true},
		{"docker -H tcp://h exec -it c sh", true},
		{"docker exec c ls", false},
		{"docker compose exec web sh", true},
		{"docker compose exec -T web sh", false},
		{"docker ps", false},
		// wrappers
		{"sudo vim /etc/hosts", true},
		{"sudo -u root vim f", true},
		{"sudo -i", true},
		{"sudo ls -s", false},
		{"env TERM=xterm LANG=C vim f", true},
		{"nice -n 10 top", true},
		{"time make", false},
		// everything else
		{"make", false},
		{"ls -la", false},
		{"cargo build", false},
	} {
		t.Run(tc.argv, func(t *testing.T) {
			assert.Equal(t, tc.want, Is(strings.Fields(tc.argv), getenv, nil))
		})
	}
}

func TestIsInteractiveExtra(t *testing.T) {
	assert.False(t, Is([]string{"mytui"}, nil, nil))
	assert.True(t, Is([]string{"/usr/local/bin/mytui", "-x"}, nil, []string{"mytui"}))
	assert.True(t, Is([]string{"sudo", "mytui"}, nil, []string{"mytui"}))
	assert.False(t, Is(nil, nil, nil))
	assert.True(t, Is([]string{"git", "commit"}, nil, nil))
	// agents set GIT_EDITOR=true: git opens no editor
	assert.False(t, Is([]string{"git", "commit"}, func(k string) string {
		if k == "GIT_EDITOR" {
			return "true"
		}
		return ""
	}, nil))
}
