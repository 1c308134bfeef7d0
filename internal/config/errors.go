package config

import (
	"errors"
	"fmt"
	"strconv"
)

// ErrInvalid is wrapped by every *Error: a bad value, or a config file
// that does not parse, is too big, or repeats a key. cmd/rac maps it to
// a usage status.
var ErrInvalid = errors.New("invalid setting")

// ErrUnsafe is wrapped, with ErrInvalid, by the *Error of a config file
// rac refuses to read: not a regular file, not yours, or writable by
// others. The file can turn redaction off, so it must be the user's own.
var ErrUnsafe = errors.New("unsafe config file")

// Error is a setting or a config file rac cannot use. Its message names
// the flag, variable or key, and says what to use instead.
type Error struct {
	// Name is the flag (--timeout), variable (RAC_RUN_TIMEOUT) or key
	// (run.timeout) of a bad value; "" when the whole file is at fault.
	Name string
	// Value is the bad value as given; HasValue false when there is none
	// to quote (a mapping where a value belongs).
	Value    string
	HasValue bool
	// Path is the config file, when the value or the fault is in it.
	Path string
	// Hint says what is wrong, then what to use: "use a unit, like 5s".
	Hint   string
	Unsafe bool  // the file was refused (ErrUnsafe)
	Err    error // the cause, when there is one (the YAML parser's error)
}

func (e *Error) Error() string {
	msg := "config file " + e.Path
	if e.Hint != "" {
		msg += ": " + e.Hint
	}
	if e.Name != "" {
		msg = "invalid " + e.Name
		if e.HasValue {
			msg += " " + strconv.Quote(e.Value)
		}
		if e.Path != "" {
			msg += " in " + e.Path
		}
		msg += ": " + e.Hint
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *Error) Unwrap() []error {
	errs := []error{ErrInvalid}
	if e.Unsafe {
		errs = append(errs, ErrUnsafe)
	}
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	return errs
}

// fileError is a fault of the config file as a whole.
func fileError(path, format string, a ...any) *Error {
	return &Error{Path: path, Hint: fmt.Sprintf(format, a...)}
}

// Warning is a key of the config file rac does not know (a typo such as
// run.annnounce). Load returns them; the caller prints them.
type Warning struct {
	Key  string // lower case, dotted: run.annnounce
	Path string // the config file
}

func (w Warning) String() string {
	return fmt.Sprintf("unknown setting %q in %s ('rac config' lists the settings)", w.Key, w.Path)
}
