// Package depcheck holds no code: its test, deps_test.go, checks apsp's
// import graph against the architecture's rules (GUIDE.md), in the manner
// of Go's own src/go/build/deps_test.go. The rules are data at the top of
// that file; read them there, and add one when a new arrow must never
// exist.
package depcheck
