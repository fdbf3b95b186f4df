//go:build !amd64 || purego

package minplus

func testImpls() []testImpl { return []testImpl{genericImpl(), apiImpl()} }
