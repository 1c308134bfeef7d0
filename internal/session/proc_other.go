//go:build !linux && !darwin

package session

// noProc is the process table of a system rac cannot read processes on:
// every rule that needs one falls through, down to the default session.
type noProc struct{}

func systemProc() Proc { return noProc{} }

func (noProc) Self() int                   { return 0 }
func (noProc) BootID() (string, error)     { return "", errNoProcTable }
func (noProc) Stat(int) (ProcStat, error)  { return ProcStat{}, errNoProcTable }
func (noProc) Environ(int) ([]byte, error) { return nil, errNoProcTable }
func (noProc) Cmdline(int) ([]byte, error) { return nil, errNoProcTable }
