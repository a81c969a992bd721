// Package golden compares the output of a test with a golden file in the
// test's testdata folder, and rewrites the file instead when the test runs
// with -update ('go test ./... -update'), so that a reviewer sees an
// intended change of output as a diff of the golden file.
//
// It is imported by tests only.
package golden
