// Package faults is rac's fault suite (make faults): rac run killed with
// SIGKILL at random points, many runs into one session at once with gc
// and readers beside them, hostile and damaged stores, the secret corpus
// in every capture mode, and a full disk. Its tests drive the rac binary
// as a user would and run only with RAC_FAULTS=1 (RAC_FAULTS_SHORT=1 for
// short settings); each randomised part uses a seeded RNG and writes a
// row (scenario, iterations, failures, seed) to RAC_FAULTS_SUMMARY.
//
// It holds no production code and must never be imported.
package faults
