package config

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"strconv"
)

// The files privateGroup reads; tests point them elsewhere. rac is built
// without cgo, so these files are all os/user would read too, and it
// does not give a group's members.
var (
	groupFile  = "/etc/group"
	passwdFile = "/etc/passwd"
)

// privateGroup reports whether gid is uid's own private group: uid's
// primary group, named in the group file, with no member but uid's own
// name. known is false when the files do not say (the group or the user
// comes from a directory service): then the file is not trusted.
func privateGroup(gid, uid uint32, groups, passwd string) (private, known bool) {
	name, primary, ok := passwdEntry(passwd, uid)
	if !ok {
		return false, false
	}
	members, ok := groupMembers(groups, gid)
	if !ok {
		return false, false
	}
	if primary != gid {
		return false, true
	}
	for _, m := range members {
		if m != name {
			return false, true
		}
	}
	return true, true
}

// passwdEntry is uid's name and primary gid in a passwd file.
func passwdEntry(file string, uid uint32) (string, uint32, bool) {
	var name string
	var gid uint32
	found := eachEntry(file, func(f [][]byte) bool {
		if len(f) < 4 || string(f[2]) != strconv.FormatUint(uint64(uid), 10) {
			return false
		}
		g, err := strconv.ParseUint(string(f[3]), 10, 32)
		if err != nil {
			return false
		}
		name, gid = string(f[0]), uint32(g)
		return true
	})
	return name, gid, found
}

// groupMembers is gid's member list in a group file.
func groupMembers(file string, gid uint32) ([]string, bool) {
	var members []string
	found := eachEntry(file, func(f [][]byte) bool {
		if len(f) < 4 || string(f[2]) != strconv.FormatUint(uint64(gid), 10) {
			return false
		}
		for _, m := range bytes.Split(f[3], []byte{','}) {
			if m = bytes.TrimSpace(m); len(m) > 0 {
				members = append(members, string(m))
			}
		}
		return true
	})
	return members, found
}

// eachEntry calls match with the colon-separated fields of each line of
// file (at most 1 MiB read) until it returns true; false when none did.
func eachEntry(file string, match func([][]byte) bool) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 1<<20))
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] == '#' || line[0] == '+' || line[0] == '-' {
			continue
		}
		if match(bytes.Split(line, []byte{':'})) {
			return true
		}
	}
	return false
}
