package main

// Hooks of rac run into retention (issue "Bounded retention"): the GC work
// replaces these.

// recordingAllowed reports whether the store has room to record; when it
// does not, rac run warns and runs the command unrecorded.
func (a *app) recordingAllowed(warn func(string)) bool { return true }

// afterRun runs automatic GC when it is due, without delaying rac's exit.
func (a *app) afterRun() {}
